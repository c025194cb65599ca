import type { Store } from '../../src/store/index.js';
import { aHistoryRun, statusOf, type Outcome } from './historyRun.js';

/**
 * A store filled by builders for the dashboard and the viewer: an edit-prediction batch, then
 * three eval batches over three cases, two workflow revs, two candidates, two arms, every run
 * status. The numbers tests expect are worked out by hand in the comments, not by the code
 * under test. `hostile` adds a case whose id, judge summary, candidate reply and tool summary
 * are markup that must stay text.
 */
export const DASHBOARD_BATCHES = ['batch-20260101T000000-aaaaaa', 'batch-20260102T000000-bbbbbb', 'batch-20260103T000000-cccccc'];
export const EP_BATCH = 'batch-20251231T000000-eeeeee';
export const DASHBOARD_CASES = ['alpha', 'beta', 'gamma'];
export const HOSTILE = '<script>alert(1)</script>';
export const HOSTILE_IMG = '<img src=x onerror="window.__pwned=1">';

/** B1 and B2: each case pass, pass, pass, fail. B3 (the last) per case: */
export const LAST_BATCH: Record<string, Outcome[]> = {
  alpha: ['pass', 'pass', 'fail', 'infra_error', 'needs_review'],
  beta: ['fail', 'fail', 'judge_failed', 'aborted', 'cancelled'],
  gamma: ['pass', 'pass', 'pass', 'running', 'pending'],
};

export const DASHBOARD_PRICES = { 'ex-model': { input: 1, output: 2 }, 'cand-model': { input: 3, output: 15 }, 'judge-model': { input: 5, output: 25 } };
/** The cost of a finished run's tokens (RUN_TOKENS of historyRun.ts) at these prices: (100·1 + 10·2 + 1,000·3 + 200·15 + 500·5 + 50·25) / 1e6 */
export const RUN_COST = 9_870 / 1e6;

/** The run whose transcript is seeded: three turns, a tool call and thinking. */
export const SEEDED_RUN = 'run-alpha-cand-a@20260103T000000-1';

export async function fillDashboardStore(store: Store, options: { hostile?: boolean; runDir?: string } = {}): Promise<void> {
  await fillEditPrediction(store);
  let clock = Date.parse('2026-01-01T00:00:00Z');
  for (const [b, batchId] of DASHBOARD_BATCHES.entries()) {
    const day = `2026-01-0${b + 1}`;
    clock = Date.parse(`${day}T00:00:00Z`);
    await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {}, created_at: `${day}T00:00:00Z` });
    const cases = options.hostile && b === 2 ? [...DASHBOARD_CASES, HOSTILE] : DASHBOARD_CASES;
    for (const caseId of cases) {
      const plan: Outcome[] = b === 2 ? (LAST_BATCH[caseId] ?? ['fail']) : ['pass', 'pass', 'pass', 'fail'];
      const candidate = b === 1 ? 'cand-b' : 'cand-a';
      for (const [i, outcome] of plan.entries()) {
        const runId = `run-${caseId}-${candidate}@${day.replaceAll('-', '')}T000000-${i + 1}`;
        const status = statusOf(outcome);
        const unfinished = status === 'pending' || status === 'running';
        clock += 60_000;
        await store.upsertRun(aHistoryRun({
          run_id: runId,
          batch_id: batchId,
          case_id: caseId,
          candidate,
          models: { examiner: 'ex-model', judge: 'judge-model', candidate: b === 1 ? 'cand-model-b' : 'cand-model' },
          workflow_rev: b === 0 ? 'rev-one' : 'rev-two',
          status,
          arm: i % 2 === 0 ? 'A' : 'B',
          attempt_index: i + 1,
          run_dir: `${options.runDir ?? '/tmp/evalflow-dashboard-runs'}/${runId}`,
          spec: { evalCase: { category: caseId === 'beta' ? 'bugfix' : 'feature', tags: caseId === 'beta' ? ['regression'] : ['tests', caseId] } },
          temporal_workflow_id: `evalflow/run/${runId}`,
          started_at: new Date(clock).toISOString(),
          finished_at: unfinished ? null : new Date(clock + 30_000).toISOString(),
          created_at: new Date(clock).toISOString(),
        }));
        if (status === 'completed' || status === 'needs_review') {
          const pass = outcome === 'pass';
          await store.saveScore(runId, {
            result: status === 'needs_review' ? null : pass ? 'pass' : 'fail',
            compliance: pass ? 4 : 2,
            execution_quality: pass ? 4 : 1,
            overall: pass ? 4 : 1.5,
            summary: caseId === HOSTILE ? `${HOSTILE} ${HOSTILE_IMG}` : `${caseId} ${outcome} summary`,
            hard_requirements: [{ item: 'runs the tests', met: pass, evidence: 'turn 1 seq 2' }],
            suggestions: [caseId === 'beta' ? '[workflow] Add a step that runs the tests.' : caseId === 'alpha' ? '[eval] Check the file too.' : '[capability] Read the error first.'],
            judge_model: 'judge-model',
            judged_at: new Date(clock + 40_000).toISOString(),
          });
        }
      }
    }
  }
  await seedTranscript(store, SEEDED_RUN, 'A plain reply.');
  // Workflow usage of two last-batch runs: the skill used by both, the rule by one, unknown for the other.
  const usage = (loaded: 'yes' | 'no' | 'unknown', invoked: 'yes' | 'no' | 'unknown') => ({ loaded, invoked, first_turn: invoked === 'yes' ? 1 : null, evidence: null });
  await store.saveWorkflowUsage(SEEDED_RUN, [
    { item: 'skills/node-test', kind: 'skill', name: 'node-test', ...usage('yes', 'yes') },
    { item: 'rules/testing', kind: 'rule', name: 'testing', ...usage('yes', 'no') },
  ]);
  await store.saveWorkflowUsage('run-gamma-cand-a@20260103T000000-1', [
    { item: 'skills/node-test', kind: 'skill', name: 'node-test', ...usage('yes', 'yes') },
    { item: 'rules/testing', kind: 'rule', name: 'testing', ...usage('unknown', 'unknown') },
  ]);
  if (options.hostile) await seedTranscript(store, `run-${HOSTILE}-cand-a@20260103T000000-1`, `${HOSTILE} ${HOSTILE_IMG}`);
}

/** Three turns: examiner, thinking, a tool call (started and completed), the candidate's reply; turn 3 says "zebra". */
async function seedTranscript(store: Store, runId: string, reply: string): Promise<void> {
  const events = [];
  for (let turn = 1; turn <= 3; turn++) {
    const at = (seq: number) => `2026-01-03T00:0${turn}:0${seq}.000Z`;
    const base = { run_id: runId, turn, attempt: 1 };
    events.push(
      { ...base, seq: 0, ts: at(0), role: 'examiner' as const, content: turn === 3 ? 'Now paint the zebra stripes.' : `Turn ${turn} request.` },
      { ...base, seq: 1, ts: at(1), role: 'candidate.thinking' as const, content: `Thinking about turn ${turn}.` },
      { ...base, seq: 2, ts: at(2), role: 'candidate.tool_call.started' as const, content: turn === 1 ? `ran ${reply}` : 'ran npm test', tool: { id: `call-${turn}`, name: 'Bash', kind: 'shell' as const, target: 'npm test' } },
      { ...base, seq: 3, ts: at(3), role: 'candidate.tool_call.completed' as const, content: `exit 0 after the tests of turn ${turn}`, tool: { id: `call-${turn}`, name: 'Bash', kind: 'shell' as const, exit_code: 0 } },
      { ...base, seq: 4, ts: at(4), role: 'candidate' as const, content: turn === 1 ? reply : `Reply of turn ${turn}.` },
    );
  }
  await store.appendTranscriptEvents(events);
}

/**
 * Runs `markUncontained` records as uncontained: two of the last batch (alpha's first, a pass;
 * beta's second, a fail) said `isolation: none`, and gamma's first of the first batch records
 * nothing (a run of a version before isolation, which ran uncontained).
 */
export const UNCONTAINED_RUNS = ['run-alpha-cand-a@20260103T000000-1', 'run-beta-cand-a@20260103T000000-2', 'run-gamma-cand-a@20260101T000000-1'];

export async function markUncontained(store: Store): Promise<void> {
  const none = { spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'none' } } };
  await store.updateRun(UNCONTAINED_RUNS[0]!, none);
  await store.updateRun(UNCONTAINED_RUNS[1]!, none);
  await store.updateRun(UNCONTAINED_RUNS[2]!, { spec: { evalCase: { category: 'feature', tags: ['tests', 'gamma'] } }, config: {} });
}

/** Two scored predictions: delta chrF 0.5 and 0.7; exact lines (2,1,1) and (1,0,1): F1 6/9; cursor hit once in two. */
async function fillEditPrediction(store: Store): Promise<void> {
  await store.upsertBatch({ batch_id: EP_BATCH, status: 'completed', spec: { kind: 'edit_prediction' }, created_at: '2025-12-31T00:00:00Z' });
  await store.saveEpExample({ example_key: 'ex-1', name: 'example one', repository_url: 'file:///tmp/repo', revision: 'abc', spec: {} });
  const scores = [
    { delta_chr_f: 50, exact_lines_tp: 2, exact_lines_fp: 1, exact_lines_fn: 1, cursor_exact_match: true },
    { delta_chr_f: 70, exact_lines_tp: 1, exact_lines_fp: 0, exact_lines_fn: 1, cursor_exact_match: false },
  ];
  for (const [repetition, score] of scores.entries()) {
    await store.saveEpPrediction({ batch_id: EP_BATCH, example_key: 'ex-1', provider: 'noop', repetition, prediction: {} });
    await store.saveEpScore({ batch_id: EP_BATCH, example_key: 'ex-1', provider: 'noop', repetition, score });
  }
}
