import type { CheckResult } from '../evalset/checkResult.js';
import { describeItems, matchHardRequirements, missingItems } from './hardItems.js';
import type { JudgeRubric } from './judgeInput.js';
import type { ParsedJudgeAnswer } from './parse.js';
import type { ReadAnswer } from './scoreSchema.js';
import type { ExpectationResult } from '../workflowUsage/index.js';
import type { HardRequirement, Score } from '../vocabulary/score.js';

export interface VerdictInput {
  parsed: ParsedJudgeAnswer;
  rubric: JudgeRubric;
  postconditions: readonly CheckResult[];
  /** `expect_workflow` checked against the run's workflow usage; each is one more hard requirement. */
  expectations?: readonly ExpectationResult[];
  runId: string;
  caseId: string;
  judgeModel: string;
  /** Requests the judge was sent before this answer was taken (1 + re-asks); named in review reasons. */
  requests?: number;
}

/** Evidence recorded for a rubric hard item the judge did not assess. */
export const NOT_ASSESSED = 'not assessed by the judge';

/**
 * Apply evalflow's rules on top of the judge's answer, so the result never rests on the judge
 * alone:
 * - scores are clamped to 0–5;
 * - hard items are laid over the rubric (`matchHardRequirements`). A rubric item the judge did
 *   not assess, or whose `met` could not be read, is recorded as not assessed: the judge's
 *   slip, never counted as the candidate's fail. Extra items are kept and noted;
 * - `pass` with any item assessed as not met becomes `fail`;
 * - a failing hard postcondition forces `fail` and sets `forced_fail_reason`, whatever the judge
 *   said (it is set even when the judge already said fail, as the reason that stands alone);
 * - each `expect_workflow` expectation is appended as a hard requirement with its usage row as
 *   evidence; one not met forces `fail` the same way, one whose usage is unknown asks a person;
 * - a verdict that rests on a salvaged answer, lacks a result or leaves items not assessed gets
 *   `review_reasons`: a person settles it. A forced fail needs no one: it does not rest on the judge.
 * Every correction is recorded in `notes`.
 */
export function decideVerdict(input: VerdictInput): Score {
  const { answer } = input.parsed;
  const notes = [...input.parsed.notes];

  const compliance = clamp('compliance', answer.compliance, notes);
  const executionQuality = clamp('execution_quality', answer.execution_quality, notes);
  const overall = clamp('overall', answer.overall, notes);
  const expectations = input.expectations ?? [];
  const hardRequirements = [...overRubric(answer.hard_requirements, input.rubric, notes), ...expectations.map(expectationItem)];

  let result = answer.result;
  const unmet = numbersWhere(hardRequirements, (item) => item.met === false);
  if (result === 'pass' && unmet.length > 0) {
    result = 'fail';
    notes.push(`judge said pass but hard requirement ${unmet.join(', ')} is not met; result set to fail`);
  }

  const failedHard = input.postconditions.filter((check) => check.severity === 'hard' && !check.passed);
  const unmetExpectations = expectations.filter((expectation) => expectation.met === false);
  const forced = [...failedHard.map(describeFailure), ...unmetExpectations.map((expectation) => `workflow expectation not met: ${expectation.item}`)];
  const forcedFailReason = forced.length > 0 ? forced.join('; ') : undefined;
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
    review_reasons: forcedFailReason === undefined ? reviewReasons(input, answer, hardRequirements.slice(0, hardRequirements.length - expectations.length)) : [],
    judge_attempts: [],
  };
}

function reviewReasons(input: VerdictInput, answer: ReadAnswer, items: readonly HardRequirement[]): string[] {
  const requests = input.requests ?? 1;
  const inRequests = `in ${requests} request${requests === 1 ? '' : 's'}`;
  const reasons: string[] = [];
  if (input.parsed.salvaged) {
    reasons.push(`the judge's answer could not be read whole ${inRequests} (${input.parsed.problems[0] ?? 'it failed the format'}); its verdict was salvaged field by field`);
  }
  if (answer.result === null) reasons.push("the judge's answer gave no result; only its scores could be read");
  const unknown = (input.expectations ?? []).filter((expectation) => expectation.met === null);
  if (unknown.length > 0) reasons.push(`workflow usage the transcript cannot tell, for ${unknown.map((expectation) => expectation.item).join('; ')}`);
  const unassessed = numbersWhere(items, (item) => !item.assessed);
  if (unassessed.length > 0) {
    reasons.push(`hard requirement${unassessed.length === 1 ? '' : 's'} not assessed by the judge ${inRequests}: ${describeItems(unassessed, input.rubric)}`);
  }
  return reasons;
}

function expectationItem(expectation: ExpectationResult): HardRequirement {
  return { item: expectation.item, met: expectation.met, assessed: expectation.met !== null, evidence: expectation.evidence };
}

function clamp(field: string, value: number, notes: string[]): number {
  const clamped = Math.min(5, Math.max(0, value));
  if (clamped !== value) notes.push(`${field} ${value} is outside 0–5; clamped to ${clamped}`);
  return clamped;
}

function overRubric(items: ReadAnswer['hard_requirements'], rubric: JudgeRubric, notes: string[]): HardRequirement[] {
  const matched = matchHardRequirements(items, rubric);
  const expected = rubric.hard.length;
  if (matched.extra.length > 0) notes.push(`judge assessed ${items.length} hard requirements, the rubric has ${expected}; extra items kept`);
  const missing = missingItems(matched);
  if (missing.length > 0) {
    notes.push(
      `judge assessed ${expected - missing.length} of ${expected} hard requirements; ` +
        `${missing.length === 1 ? 'the missing one is' : 'the missing ones are'} recorded as not assessed (${missing.join(', ')})`,
    );
  }
  const slots = matched.slots.map((slot, index) => slot ?? { item: rubric.hard[index] ?? '', met: null, evidence: NOT_ASSESSED });
  return [...slots, ...matched.extra].map((item) => ({
    item: item.item,
    met: item.met,
    assessed: item.met !== null,
    evidence: item.met === null && item.evidence.trim() === '' ? NOT_ASSESSED : item.evidence,
  }));
}

function numbersWhere(items: readonly HardRequirement[], test: (item: HardRequirement) => boolean): number[] {
  return items.flatMap((item, index) => (test(item) ? [index + 1] : []));
}

function describeFailure(check: CheckResult): string {
  const exit = check.exit_code === null ? 'no exit code' : `exit ${check.exit_code}`;
  return `hard postcondition failed: ${check.description} (${exit})`;
}
