import type { CheckResult } from '../evalset/checkResult.js';
import type { JudgeRubric } from './judgeInput.js';
import type { ParsedJudgeAnswer } from './parse.js';
import type { HardRequirement, Score } from './scoreSchema.js';

export interface VerdictInput {
  parsed: ParsedJudgeAnswer;
  rubric: JudgeRubric;
  postconditions: readonly CheckResult[];
  runId: string;
  caseId: string;
  judgeModel: string;
}

/** Evidence recorded for a rubric hard item the judge did not assess. */
export const NOT_ASSESSED = 'not assessed by the judge';

/**
 * Apply evalflow's rules on top of the judge's answer, so the result never rests on the judge
 * alone:
 * - scores are clamped to 0–5;
 * - hard items are matched to the rubric by position (the prompt numbers them and asks for the
 *   same order). Missing items are added as not met: a pass must show evidence for every hard
 *   requirement. Extra items are kept and noted;
 * - `pass` with any unmet hard item becomes `fail`;
 * - a failing hard postcondition forces `fail` and sets `forced_fail_reason`, whatever the judge
 *   said (it is set even when the judge already said fail, as the reason that stands alone).
 * Every correction is recorded in `notes`.
 */
export function decideVerdict(input: VerdictInput): Score {
  const { answer } = input.parsed;
  const notes = [...input.parsed.notes];

  const compliance = clamp('compliance', answer.compliance, notes);
  const executionQuality = clamp('execution_quality', answer.execution_quality, notes);
  const overall = clamp('overall', answer.overall, notes);
  const hardRequirements = matchRubric(answer.hard_requirements, input.rubric, notes);

  let result = answer.result;
  const unmet = hardRequirements.flatMap((item, index) => (item.met ? [] : [index + 1]));
  if (result === 'pass' && unmet.length > 0) {
    result = 'fail';
    notes.push(`judge said pass but hard requirement ${unmet.join(', ')} is not met; result set to fail`);
  }

  const failedHard = input.postconditions.filter((check) => check.severity === 'hard' && !check.passed);
  const forcedFailReason = failedHard.length > 0 ? failedHard.map(describeFailure).join('; ') : undefined;
  if (forcedFailReason !== undefined) result = 'fail';

  return {
    reasoning: answer.reasoning,
    result,
    compliance,
    execution_quality: executionQuality,
    overall,
    summary: answer.summary,
    hard_requirements: hardRequirements,
    suggestions: answer.suggestions,
    run_id: input.runId,
    case_id: input.caseId,
    judge_model: input.judgeModel,
    salvaged: input.parsed.salvaged,
    ...(forcedFailReason === undefined ? {} : { forced_fail_reason: forcedFailReason }),
    notes,
  };
}

function clamp(field: string, value: number, notes: string[]): number {
  const clamped = Math.min(5, Math.max(0, value));
  if (clamped !== value) notes.push(`${field} ${value} is outside 0–5; clamped to ${clamped}`);
  return clamped;
}

function matchRubric(items: readonly HardRequirement[], rubric: JudgeRubric, notes: string[]): HardRequirement[] {
  const expected = rubric.hard.length;
  if (items.length === expected) return [...items];
  if (items.length > expected) {
    notes.push(`judge assessed ${items.length} hard requirements, the rubric has ${expected}; extra items kept`);
    return [...items];
  }
  const missing = rubric.hard.slice(items.length);
  notes.push(
    `judge assessed ${items.length} of ${expected} hard requirements; ` +
      `${missing.length === 1 ? 'the missing one counts' : 'the missing ones count'} as not met`,
  );
  return [...items, ...missing.map((item) => ({ item, met: false, evidence: NOT_ASSESSED }))];
}

function describeFailure(check: CheckResult): string {
  const exit = check.exit_code === null ? 'no exit code' : `exit ${check.exit_code}`;
  return `hard postcondition failed: ${check.description} (${exit})`;
}
