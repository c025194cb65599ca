import { join } from 'node:path';
import { decisionRows } from '../../src/run/decisionRows.js';
import { designToWire, openCases, settleRound, startDecisions, untilDecidedDesign, type RoundsState } from '../../src/run/untilDecided.js';
import type { Store } from '../../src/store/index.js';
import type { VerdictResult } from '../../src/vocabulary/verdictResult.js';
import { aHistoryRun } from './historyRun.js';

/** Per case, round r's verdicts of arm A (base) and arm B (new). */
export type RoundScript = Record<string, (round: number) => [VerdictResult, VerdictResult]>;

/**
 * An A/B batch run until decided (at most `maxRunsPerCase` a side, α 0.05) as the store has it
 * once it ended: its row with its arms and limits, one run of each arm per round of each case
 * still open, their verdicts, and the decisions the sequential test took round by round.
 */
export async function seedDecidedBatch(store: Store, root: string, batchId: string, script: RoundScript, maxRunsPerCase = 12): Promise<RoundsState> {
  const design = untilDecidedDesign({ maxRunsPerCase });
  await store.upsertBatch({
    batch_id: batchId,
    status: 'completed',
    spec: { arms: [{ name: 'base', change: 'base' }, { name: 'new', change: 'workflow_rev=abc1234' }], until_decided: { a: 'base', b: 'new', max_runs_per_case: maxRunsPerCase, alpha: 0.05 }, total: Object.keys(script).length * 2 * maxRunsPerCase },
    created_at: '2026-03-05T00:00:00Z',
  });
  let state: RoundsState = { round: 0, decisions: startDecisions(Object.keys(script)), spent: { runs: 0, usd: null }, stop: null };
  let n = 0;
  while (openCases(state.decisions).length > 0) {
    const round = state.round + 1;
    const results = [];
    for (const caseId of openCases(state.decisions)) {
      const [a, b] = script[caseId]!(round);
      for (const [arm, result] of [['base', a], ['new', b]] as const) {
        const runId = `run-${caseId}-x@20260305T000000-${round}+${arm}`;
        await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'x', status: 'completed', arm, attempt_index: round, workflow_rev: 'abc1234', run_dir: join(root, 'runs', runId) }));
        await store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, judge_model: 'j', judged_at: new Date(Date.UTC(2026, 2, 5, 0, 0, n++)).toISOString() });
      }
      results.push({ caseId, a, b });
    }
    state = { round, decisions: settleRound(design, state.decisions, results), spent: { runs: state.spent.runs + 2 * results.length, usd: null }, stop: null };
  }
  await store.saveBatchDecisions(batchId, decisionRows({ design: designToWire(design), a: 'base', b: 'new' }, state));
  return state;
}

/**
 * Cases the sequential test and Fisher's test on the accumulated runs read differently:
 * `drifts` (B fails every other round up to round 10) ends at its limit undecided, where Fisher
 * would call 12/12 → 7/12 a regression; `improves` is decided an improvement after 11 rounds.
 */
export const DRIFTS_AND_IMPROVES: RoundScript = {
  drifts: (r) => ['pass', r % 2 === 0 && r <= 10 ? 'fail' : 'pass'],
  improves: (r) => [r % 2 === 0 ? 'pass' : 'fail', 'pass'],
};
