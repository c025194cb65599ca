import type { CheckResult } from '../evalset/checkResult.js';
import type { RunAnomaly } from '../run/anomaly.js';
import type { RunFacts } from '../run/runFacts.js';
import { describeAnomalies } from './anomalies.js';
import { SUGGESTION_TAGS, suggestionTag, type Score } from './scoreSchema.js';

export interface ReviewInput {
  score: Score;
  facts: RunFacts;
  anomalies?: readonly RunAnomaly[];
}

/**
 * review.md for a judged run: whether it followed the requirements (each hard item with its
 * evidence), key observations, suggestions grouped by tag, and run anomalies. A view of
 * score.yaml plus the run facts, so it can be rebuilt from the store at any time.
 */
export function renderReview({ score, facts, anomalies }: ReviewInput): string {
  const met = score.hard_requirements.filter((item) => item.met).length;
  const sections = [
    `# Review: ${score.run_id} — ${score.result.toUpperCase()}`,
    [
      `- Case: ${score.case_id}`,
      `- Judge model: ${score.judge_model}`,
      `- Scores: compliance ${score.compliance}/5, execution quality ${score.execution_quality}/5, overall ${score.overall}/5`,
      `- Dialogue: ${describeDialogue(facts)}`,
    ].join('\n'),
    '## Did it follow the requirements?',
    `${met} of ${score.hard_requirements.length} hard requirements met.`,
    score.hard_requirements
      .map((item) => `- ${item.met ? '✓' : '✗'} ${indent(item.item)} — evidence: ${indent(item.evidence || '(none given)')}`)
      .join('\n'),
    '## Key observations',
    score.summary.trim() || '(no summary given)',
    '### Judge reasoning',
    score.reasoning.trim() || '(no reasoning given)',
    '## Suggestions',
    renderSuggestions(score.suggestions),
    '## Run anomalies',
    bulletsOrNone(describeAnomalies({ score, facts, anomalies: anomalies ?? [] })),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

export interface AbortedReviewInput {
  runId: string;
  caseId: string;
  /** Why the run stopped before the candidate was judged, e.g. the failed precondition. */
  reason: string;
  preconditions?: readonly CheckResult[];
  anomalies?: readonly RunAnomaly[];
}

/** review.md for a run aborted before judging (a failing hard precondition): no verdict, no scores. */
export function renderAbortedReview(input: AbortedReviewInput): string {
  const sections = [
    `# Review: ${input.runId} — ABORTED`,
    `- Case: ${input.caseId}\n- Not judged: the run stopped before the candidate could be scored. Aborted runs do not count in pass rates.`,
    '## Reason',
    input.reason.trim(),
  ];
  if (input.preconditions && input.preconditions.length > 0) {
    sections.push('## Preconditions', input.preconditions.map(renderCheck).join('\n'));
  }
  const anomalies = [`- Run aborted: ${firstLine(input.reason)}`, ...describeAnomalies({ anomalies: input.anomalies ?? [] })];
  sections.push('## Run anomalies', anomalies.join('\n'));
  return `${sections.join('\n\n')}\n`;
}

export interface JudgeFailedReviewInput {
  runId: string;
  caseId: string;
  facts: RunFacts;
  /** The JudgeError (or other) message. */
  error: string;
  anomalies?: readonly RunAnomaly[];
}

/** review.md for a run whose dialogue completed but whose judge step failed. */
export function renderJudgeFailedReview(input: JudgeFailedReviewInput): string {
  const anomalies = [
    `- Judge failed: ${firstLine(input.error)}`,
    ...describeAnomalies({ facts: input.facts, anomalies: input.anomalies ?? [] }),
  ];
  const sections = [
    `# Review: ${input.runId} — JUDGE FAILED`,
    [
      `- Case: ${input.caseId}`,
      `- Dialogue: ${describeDialogue(input.facts)}`,
      `- Not scored: the judge step failed. The transcript is stored; \`evalflow rejudge ${input.runId}\` runs only the judge again. Judge failures do not count in pass rates.`,
    ].join('\n'),
    '## Error',
    fence(input.error.trim()),
    '## Run anomalies',
    anomalies.join('\n'),
  ];
  return `${sections.join('\n\n')}\n`;
}

function describeDialogue(facts: RunFacts): string {
  const turns = `${facts.turnsUsed} of ${facts.maxTurns} turns`;
  if (facts.examinerEnded) return `${turns}, ended by the examiner`;
  if (facts.turnLimitHit) return `${turns}, stopped at the turn limit`;
  return `${turns}, stopped before the examiner ended it`;
}

function renderSuggestions(suggestions: readonly string[]): string {
  const groups = SUGGESTION_TAGS.flatMap((tag) => {
    const items = suggestions.filter((text) => suggestionTag(text) === tag);
    if (items.length === 0) return [];
    const bullets = items.map((text) => `- ${indent(text.replace(/^\[[a-z]+\]\s*/, ''))}`);
    return [`### [${tag}]\n\n${bullets.join('\n')}`];
  });
  return groups.length === 0 ? 'None.' : groups.join('\n\n');
}

function renderCheck(check: CheckResult): string {
  const exit = check.exit_code === null ? 'no exit code' : `exit ${check.exit_code}`;
  const lines = [`- ${check.passed ? '✓' : '✗'} [${check.severity}] ${indent(check.description)}`, `  Check: \`${check.check}\` (${exit})`];
  const output = check.output.trim();
  if (output !== '') lines.push(`  ${indent(fence(output))}`);
  return lines.join('\n');
}

function bulletsOrNone(lines: string[]): string {
  return lines.length === 0 ? 'None.' : lines.join('\n');
}

/** Continuation lines of a list item, indented so markdown keeps them inside the item. */
function indent(text: string): string {
  return text.replace(/\n/g, '\n  ');
}

/** A code fence longer than any backtick run in the text, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}\n${text}\n${ticks}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
