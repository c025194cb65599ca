import type { CheckResult } from '../evalset/checkResult.js';
import { inertMarkdown } from '../markdown/inertMarkdown.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { ReviewDecision } from '../vocabulary/reviewDecision.js';
import { reviewCommand } from './reviewText.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import { renderWorkflowUsed, type WorkflowPlacement, type WorkflowUsageRow } from '../workflowUsage/index.js';
import { describeAnomalies } from './reviewAnomalies.js';
import { SUGGESTION_TAGS, suggestionTag } from '../vocabulary/suggestions.js';
import type { HardRequirement, Score } from '../vocabulary/score.js';

export interface ReviewInput {
  score: Score;
  facts: RunFacts;
  anomalies?: readonly RunAnomaly[];
  /** A person's decision on a verdict that needed one, shown beside the judge's. */
  decision?: ReviewDecision | null;
  /** What the candidate did with its workflow, and where it was placed (none without a workflow). */
  workflowUsage?: readonly WorkflowUsageRow[];
  placement?: WorkflowPlacement | null;
}

/**
 * review.md for a judged run: whether it followed the requirements (each hard item with its
 * evidence), key observations, suggestions grouped by tag, and run anomalies. A verdict that
 * needs a person says why and how to settle it; once settled, the person's decision stands
 * beside the judge's verdict, which is shown unchanged. A view of score.yaml, the run facts
 * and the decision, so it can be rebuilt from the store at any time.
 */
export function renderReview({ score, facts, anomalies, decision, workflowUsage, placement }: ReviewInput): string {
  const met = score.hard_requirements.filter((item) => item.met === true).length;
  const unassessed = score.hard_requirements.filter((item) => !item.assessed).length;
  const sections = [
    `# Review: ${score.run_id} — ${title(score, decision ?? null)}`,
    [
      `- Case: ${score.case_id}`,
      `- Judge model: ${score.judge_model}`,
      `- Scores: compliance ${score.compliance}/5, execution quality ${score.execution_quality}/5, overall ${score.overall}/5`,
      `- Dialogue: ${describeDialogue(facts)}`,
    ].join('\n'),
    ...personsReview(score, decision ?? null),
    '## Did it follow the requirements?',
    `${met} of ${score.hard_requirements.length} hard requirements met${unassessed > 0 ? `, ${unassessed} not assessed by the judge` : ''}.`,
    score.hard_requirements.map(renderItem).join('\n'),
    renderWorkflowUsed(workflowUsage ?? [], placement ?? null),
    '## Key observations',
    inertMarkdown(score.summary.trim()) || '(no summary given)',
    '### Judge reasoning',
    inertMarkdown(score.reasoning.trim()) || '(no reasoning given)',
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

function title(score: Score, decision: ReviewDecision | null): string {
  const judge = score.result ?? 'no result';
  if (decision) return `${decision.result.toUpperCase()} (a person's decision; the judge said ${judge})`;
  if (score.review_reasons.length > 0) return `NEEDS REVIEW (the judge said ${judge})`;
  return judge.toUpperCase();
}

/** The section on a person's review: asked for and why, or given and by whom; none when not needed. */
function personsReview(score: Score, decision: ReviewDecision | null): string[] {
  const why = score.review_reasons.map((reason) => `- ${indent(reason)}`);
  if (decision) {
    const lines = [`- Decision: ${decision.result}, by ${decision.author}, ${decision.decidedAt}`, `- Note: ${indent(decision.note)}`];
    if (why.length > 0) lines.push('- Asked for because:', ...why.map((line) => `  ${line}`));
    return ["## A person's review", lines.join('\n')];
  }
  if (why.length === 0) return [];
  return [
    "## A person's review",
    `Needed: this run is not counted until a person decides (\`${reviewCommand(score.run_id)}\`), because:`,
    why.join('\n'),
  ];
}

function renderItem(item: HardRequirement): string {
  if (!item.assessed) return `- ? ${indent(item.item)} — not assessed by the judge`;
  return `- ${item.met ? '✓' : '✗'} ${indent(item.item)} — evidence: ${indent(item.evidence || '(none given)')}`;
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
/** Model or person text as a list item's continuation, inert (see inertMarkdown). */
function indent(text: string): string {
  return inertMarkdown(text).replace(/\n/g, '\n  ');
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
