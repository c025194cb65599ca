import { workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { BatchInput } from '../run/batchInput.js';
import { roundOffsets, roundResults } from '../run/decisionRounds.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import { batchLimitReached, designFromWire, openCases, settleRound, startDecisions, stopOpenCases, type RoundsState, type UntilDecidedInput } from '../run/untilDecided.js';

/** What the rounds need of the batch around them. */
export interface RoundsContext {
  /** The batch's bookkeeping activities (local ones since the batch plans locally). */
  books: Pick<Activities, 'planRound' | 'batchSpend'>;
  /** Starts the runs through the batch's window and resolves with their outcomes, in order, once all finished. */
  runAll(specs: RunSpec[]): Promise<RunOutcome[]>;
  /** Called whenever the state changes, for the progress query and the Web UI. */
  show(state: RoundsState): void;
  /** Continues as new with this state (never returns); called between rounds once the history grew long. */
  carryOver(state: RoundsState): Promise<never>;
  /** History length after which the batch continues as new between rounds. */
  continueAfterEvents: number;
}

/**
 * The rounds of a batch run `--until-decided`: each round starts one attempt per arm of every
 * case still open, waits for them, adds the pairs and asks the sequential test; a decided case
 * gets no further round. The batch stops when no case is open, or before a round that would
 * pass `--max-runs` or `--budget-usd` (the open cases then end undecided, saying so). The state
 * is plain data in the workflow, so a worker that dies mid-round replays to the same decisions.
 */
export async function decideRounds(input: BatchInput, untilDecided: UntilDecidedInput, caseIds: readonly string[], context: RoundsContext): Promise<RoundsState> {
  const { limits, a, b } = untilDecided;
  const design = designFromWire(untilDecided.design);
  const arms = input.arms ?? [];
  const prices = input.summaries?.prices;
  let state: RoundsState = untilDecided.state ?? { round: 0, decisions: startDecisions(caseIds), spent: { runs: 0, usd: null }, stop: null };
  context.show(state);
  for (;;) {
    const open = openCases(state.decisions);
    if (open.length === 0) return state;
    const limit = batchLimitReached(limits, state.spent, open.length);
    if (limit) {
      state = { ...state, decisions: stopOpenCases(design, state.decisions, limit), stop: limit.why };
      context.show(state);
      return state;
    }
    const round = state.round + 1;
    const offsets = roundOffsets(state.decisions, round, limits.maxRunsPerCase, arms.length);
    const specs = await context.books.planRound({ batchId: input.batchId, stamp: input.stamp, template: input.template, arms, offsets, round });
    const outcomes = await context.runAll(specs);
    const runs = specs.map((spec, i) => ({ caseId: spec.evalCase.id, arm: spec.arm, result: outcomes[i]?.result ?? null }));
    // Without prices the budget cannot be read, and the CLI refuses a budget then; run counts still hold.
    const usd = prices && Object.keys(prices).length > 0 ? await context.books.batchSpend({ batchId: input.batchId, prices }) : null;
    state = { round, decisions: settleRound(design, state.decisions, roundResults(runs, a, b)), spent: { runs: state.spent.runs + specs.length, usd }, stop: null };
    context.show(state);
    if (openCases(state.decisions).length > 0 && workflowInfo().historyLength > context.continueAfterEvents) await context.carryOver(state);
  }
}
