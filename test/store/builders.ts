import type { TranscriptEvent } from '../../src/transcript/schema.js';
import type { RunRowInput, ScoreRowInput, WorkerRow } from '../../src/store/index.js';

/** A run with every required column filled; override what the test is about. */
export function aRun(overrides: Partial<RunRowInput> & { run_id: string }): RunRowInput {
  return {
    case_id: 'fix-login',
    case_version: 'v1',
    case_hash: 'sha256:aaaa',
    candidate: 'fake',
    candidate_adapter: 'fake',
    run_dir: `/tmp/runs/${overrides.run_id}`,
    ...overrides,
  };
}

/** A transcript event of `run_id`; turn 1, attempt 1, seq 0 unless overridden. */
export function anEvent(overrides: Partial<TranscriptEvent> & { run_id: string }): TranscriptEvent {
  return {
    turn: 1,
    attempt: 1,
    seq: 0,
    ts: '2026-03-01T10:00:00.000Z',
    role: 'candidate',
    content: 'done',
    ...overrides,
  };
}

/** A passing verdict judged at `judged_at`. */
export function aScore(overrides: Partial<ScoreRowInput> & { judged_at: string }): ScoreRowInput {
  return {
    result: 'pass',
    compliance: 4,
    execution_quality: 3.5,
    overall: 3.75,
    summary: 'Followed the workflow.',
    hard_requirements: [{ item: 'ran the tests', met: true, evidence: 'shell: go test ./... → exit=0' }],
    suggestions: ['[workflow] name the test command in the skill'],
    judge_model: 'judge-model-1',
    raw: 'result: pass\n',
    salvaged: false,
    ...overrides,
  };
}

/** A worker row of `host` (pid 42 on m, one of two slots busy); override what the test is about. */
export function aWorkerRow(host: string, overrides: Partial<WorkerRow> = {}): WorkerRow {
  return {
    worker_id: `${host}/42@m`,
    host_id: host,
    pid: 42,
    hostname: 'm',
    slots: 2,
    busy: 1,
    draining: false,
    started_at: '2026-05-01T10:00:00.000Z',
    seen_at: '2026-05-01T10:00:05.000Z',
    ...overrides,
  };
}

/** A unique id with a readable prefix, so tests sharing one store never collide. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
