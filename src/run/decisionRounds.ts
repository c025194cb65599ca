import type { VerdictResult } from '../vocabulary/verdictResult.js';
import type { CaseDecision, RoundResult } from './untilDecided.js';

/**
 * How the rounds of an until-decided batch map onto its plan. The batch plans every run a case
 * could need (`planEntries` with `maxRunsPerCase` attempts, case by case, each attempt once per
 * arm in turn), then starts one attempt of each open case per round: round r of case c sits at
 * `c · maxRunsPerCase · arms + (r − 1) · arms`, its arms next to each other.
 */

/** Where round `round` of each open case starts in the plan, in the decisions' (the plan's) case order. */
export function roundOffsets(decisions: readonly CaseDecision[], round: number, maxRunsPerCase: number, arms: number): { caseId: string; offset: number }[] {
  if (!Number.isInteger(round) || round < 1 || round > maxRunsPerCase) throw new RangeError(`roundOffsets: round ${round} is not in 1..${maxRunsPerCase}`);
  return decisions.flatMap((decision, index) => (decision.stopped ? [] : [{ caseId: decision.caseId, offset: index * maxRunsPerCase * arms + (round - 1) * arms }]));
}

/** One finished run of a round: its case, its arm and its verdict (null when it was not judged). */
export interface RoundRun {
  caseId: string;
  arm: string | undefined;
  result: VerdictResult | null;
}

/** A round's runs as pairs: per case, arm `a`'s verdict and arm `b`'s (null for a side with no judged run). */
export function roundResults(runs: readonly RoundRun[], a: string, b: string): RoundResult[] {
  const byCase = new Map<string, RoundResult>();
  for (const run of runs) {
    const pair = byCase.get(run.caseId) ?? { caseId: run.caseId, a: null, b: null };
    if (run.arm === a) pair.a = run.result;
    else if (run.arm === b) pair.b = run.result;
    byCase.set(run.caseId, pair);
  }
  return [...byCase.values()];
}
