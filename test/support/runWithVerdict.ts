import type { Run, RunWithVerdict, ScoreRow } from '../../src/store/index.js';

let made = 0;

/**
 * A run of `caseId` as the summaries read it from the store, with its verdict: judged `pass`
 * (overall 4) or `fail` (overall 1.5), or stopped in a status unjudged. `overrides` win, and
 * `verdictOverrides` win in the verdict of a judged run.
 */
export function aRunWithVerdict(caseId: string, outcome: 'pass' | 'fail' | Run['status'], overrides: Partial<Run> = {}, verdictOverrides: Partial<ScoreRow> = {}): RunWithVerdict {
  made += 1;
  const judged = outcome === 'pass' || outcome === 'fail';
  const run: Run = {
    run_id: `run-${caseId}-x@20260101T000000-${made}`,
    batch_id: 'batch-20260101T000000-aaaaaa',
    case_id: caseId,
    case_version: 'v1',
    case_hash: `h-${caseId}`,
    candidate: 'x',
    candidate_adapter: 'command',
    models: {},
    workflow_rev: 'rev1',
    status: judged ? 'completed' : (outcome as Run['status']),
    result: judged ? (outcome as 'pass' | 'fail') : null,
    overall: judged ? (outcome === 'pass' ? 4 : 1.5) : null,
    run_dir: `/runs/run-${made}`,
    temporal_workflow_id: null,
    temporal_run_id: null,
    config: {},
    spec: null,
    judge_input: null,
    anomalies: [],
    error: null,
    parked_host: null,
    project_rev: null,
    candidate_cli_version: null,
    workflow_dirty: null,
    workflow_hash: null,
    arm: null,
    attempt_index: null,
    tokens: null,
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:02.500Z',
    created_at: `2026-01-01T00:${String(Math.floor(made / 60) % 60).padStart(2, '0')}:${String(made % 60).padStart(2, '0')}.000Z`,
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
  const verdict: ScoreRow | null = judged
    ? { run_id: run.run_id, result: outcome as 'pass' | 'fail', compliance: 4, execution_quality: 4, overall: run.overall, summary: 'ok', hard_requirements: [], suggestions: [], judge_model: 'j', judged_at: '2026-01-01T00:00:00.000Z', raw: '', salvaged: false, ...verdictOverrides }
    : null;
  return { run, verdict };
}

/** The runs of one case and arm, attempt 1, 2, … in the order given. */
export function attempts(caseId: string, outcomes: readonly ('pass' | 'fail' | Run['status'])[], overrides: Partial<Run> = {}): RunWithVerdict[] {
  return outcomes.map((outcome, i) => aRunWithVerdict(caseId, outcome, { attempt_index: i + 1, ...overrides }));
}
