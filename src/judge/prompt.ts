import type { CheckResult } from '../evalset/checkResult.js';
import type { ChatMessage } from '../llm/port.js';
import { compactTranscript, type CompactTranscript } from './compact.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import type { JudgeInput, JudgeRubric } from './judgeInput.js';
import { JUDGE_SYSTEM_PROMPT } from './systemPrompt.js';
import type { ExpectationResult, WorkflowUsageRow } from '../workflowUsage/index.js';

export interface JudgePrompt {
  system: string;
  user: string;
  /** The compaction behind the transcript section, so the caller can report elision. */
  transcript: CompactTranscript;
}

/**
 * Build the judge's two messages: the fixed system prompt, and a user message holding the case
 * id, the rubric (hard items numbered, as the answer must follow them), the postcondition
 * results, the run facts and the compacted transcript.
 */
export function buildJudgePrompt(input: JudgeInput): JudgePrompt {
  const transcript = compactTranscript(input.events, input.compact);
  const user = [
    `# Run to judge\n\nCase: ${input.caseId}\nRun: ${input.runId}`,
    renderRubric(input.rubric),
    renderPostconditions(input.postconditions),
    ...(input.workflowUsage && input.workflowUsage.length > 0 ? [renderWorkflowUsage(input.workflowUsage, input.expectations ?? [])] : []),
    renderFacts(input.facts),
    renderTranscript(transcript),
    'Now write the YAML verdict.',
  ].join('\n\n');
  return { system: JUDGE_SYSTEM_PROMPT, user, transcript };
}

/** The prompt as chat messages for `LlmClient.chat`. */
export function judgeMessages(prompt: JudgePrompt): ChatMessage[] {
  return [
    { role: 'system', content: prompt.system },
    { role: 'user', content: prompt.user },
  ];
}

/**
 * What the judge is told when its answer cannot be used as written: the problem, and to write
 * the whole verdict again (a partial fix would need merging, which a slip must not require).
 */
export function reaskMessage(problem: string, rubric: JudgeRubric): string {
  return [
    `Your verdict could not be used as written: ${problem.replace(/[.\s]+$/, '')}.`,
    `Write the whole verdict again, as YAML only, in the format of your instructions, with one hard_requirements entry for each of the ${rubric.hard.length} hard requirements, in the rubric's order.`,
  ].join('\n\n');
}

function renderRubric(rubric: JudgeRubric): string {
  const hard = rubric.hard.map((item, i) => `${i + 1}. ${item}`);
  return [
    '# Rubric',
    `## Hard requirements (${rubric.hard.length}; all must be met to pass; assess each, in this order)`,
    ...hard,
    '## Quality (affects the scores, never blocks a pass)',
    ...bulletsOrNone(rubric.quality),
    '## Common failures (watch for these)',
    ...bulletsOrNone(rubric.commonFailures),
  ].join('\n');
}

function renderPostconditions(results: readonly CheckResult[]): string {
  if (results.length === 0) return '# Postcondition results\n\n(none defined for this case)';
  const blocks = results.map((result) => {
    const status = result.passed ? 'PASSED' : 'FAILED';
    const exit = result.exit_code === null ? 'no exit code' : `exit ${result.exit_code}`;
    const lines = [`- [${result.severity}] ${status}: ${result.description}`, `  check: ${result.check}`, `  ${exit}, ${result.duration_ms} ms`];
    const output = result.output.trimEnd();
    if (output !== '') lines.push('  output:', ...output.split('\n').map((line) => `    ${line}`));
    return lines.join('\n');
  });
  return ['# Postcondition results (checked in the sandbox after the dialogue)', ...blocks].join('\n');
}

/**
 * The usage table, as evidence beside the postconditions: what the transcript shows of each
 * workflow item. The expectations are decided already; the judge reads them, it does not redo them.
 */
function renderWorkflowUsage(rows: readonly WorkflowUsageRow[], expectations: readonly ExpectationResult[]): string {
  const lines = [
    '# Workflow used (detected by evalflow from the transcript; unknown = the agent\'s stream cannot tell)',
    '| item | loaded | invoked | first turn | evidence |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.item} | ${row.loaded} | ${row.invoked} | ${row.first_turn ?? '-'} | ${(row.evidence ?? '').replace(/\|/g, '\\|')} |`),
  ];
  if (expectations.length > 0) {
    lines.push('', 'Expectations of the case (decided by evalflow, recorded as extra hard requirements; do not list them yourself):');
    for (const expectation of expectations) lines.push(`- ${expectation.met === null ? 'UNKNOWN' : expectation.met ? 'MET' : 'NOT MET'}: ${expectation.item}`);
  }
  return lines.join('\n');
}

function renderFacts(facts: RunFacts): string {
  return [
    '# Run facts',
    `- Turns used: ${facts.turnsUsed} of ${facts.maxTurns}`,
    `- Turn limit hit: ${facts.turnLimitHit ? 'yes' : 'no'}`,
    `- Examiner ended the dialogue: ${facts.examinerEnded ? 'yes' : 'no'}`,
  ].join('\n');
}

function renderTranscript(transcript: CompactTranscript): string {
  const note =
    transcript.elidedBytes > 0
      ? `The middle of the transcript was elided for length (${transcript.elidedBytes} bytes); see the marker.`
      : 'The transcript is complete (streaming partials and superseded tool-start events omitted).';
  return [`# Transcript (${transcript.events} events)`, note, '<transcript>', transcript.text, '</transcript>'].join('\n');
}

function bulletsOrNone(items: readonly string[]): string[] {
  return items.length === 0 ? ['(none)'] : items.map((item) => `- ${item}`);
}
