import type { BatchDecision } from '../store/index.js';
import { caseVerdict, designFromWire, type RoundsState, type UntilDecidedInput } from './untilDecided.js';

/**
 * The store's rows for an until-decided batch's decisions as it ended: per case the sequential
 * test's label, its runs a side, B − A with its interval, its evidence and why it stopped. A case
 * still open (the batch was cancelled or failed mid-round) is kept as `insufficient_data` with no
 * stop, saying so: it was never decided, and no other test may decide it after the fact.
 */
export function decisionRows(untilDecided: Pick<UntilDecidedInput, 'design' | 'a' | 'b'>, state: RoundsState): BatchDecision[] {
  const design = designFromWire(untilDecided.design);
  return state.decisions.map((decision) => {
    const verdict = caseVerdict(design, decision);
    return {
      case_id: decision.caseId,
      arm_a: untilDecided.a,
      arm_b: untilDecided.b,
      label: decision.stopped ? (decision.stopped.label as BatchDecision['label']) : 'insufficient_data',
      stopped_by: decision.stopped?.stoppedBy ?? null,
      why: decision.stopped?.why ?? `still open when the batch ended: ${verdict.why}`,
      runs_a_side: decision.rounds,
      pairs: decision.tally.pairs,
      both_passed: decision.tally.bothPassed,
      only_a: decision.tally.onlyA,
      only_b: decision.tally.onlyB,
      evidence: verdict.evidence,
      difference: verdict.interval?.difference ?? null,
      low: verdict.interval?.low ?? null,
      high: verdict.interval?.high ?? null,
      alpha: design.alpha,
      max_runs_per_case: design.maxPairs,
    };
  });
}
