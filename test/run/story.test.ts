import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../../src/run/runSpec.js';
import { batchPosition, batchSummaryLine, runEnded, runPlace, runPosition, runSummary } from '../../src/run/story.js';

const spec = (overrides: Partial<RunSpec> = {}): RunSpec =>
  ({
    runId: 'run-add-truncate-claude@20260101T000000-2',
    batchId: 'batch-1',
    k: 2,
    evalCase: { id: 'add-truncate', version: 'v1', category: 'feature', targetWorkflow: 'tdd', maxTurns: 10, purpose: 'p' },
    candidate: { name: 'claude-code', adapter: 'claude-code', model: 'sonnet', args: [], env: {} },
    workflowRev: '3f2a1c9d0e8b7a6f5e4d3c2b1a0f9e8d7c6b5a49',
    runsDir: '/r',
    ...overrides,
  }) as RunSpec;

describe('the Web UI texts of runs and batches', () => {
  it('a run summary names the case, the candidate and its model, the rev and the attempt', () => {
    expect(runSummary(spec(), 5)).toBe('add-truncate · claude-code (sonnet) · rev 3f2a1c9 · attempt 2/5');
    expect(runSummary(spec({ k: undefined, workflowRev: undefined, arm: 'B' }), 1)).toBe('add-truncate · claude-code (sonnet) · arm B');
    expect(runSummary(spec({ noWorkflow: true, k: undefined }), 1)).toBe('add-truncate · claude-code (sonnet) · no workflow');
  });

  it('a run summary says uncontained when the candidate ran with isolation: none, and nothing when contained', () => {
    const candidate = spec().candidate;
    expect(runSummary(spec({ candidate: { ...candidate, isolation: 'none' } }), 5)).toBe('add-truncate · claude-code (sonnet) · rev 3f2a1c9 · attempt 2/5 · uncontained');
    expect(runSummary(spec({ candidate: { ...candidate, isolation: 'sandbox' } }), 5)).toBe('add-truncate · claude-code (sonnet) · rev 3f2a1c9 · attempt 2/5');
  });

  it('current details follow the stage, the turn, who works, and the tool calls', () => {
    expect(runPosition({ stage: 'dialogue', turn: 3, maxTurns: 10, actor: 'candidate', toolCalls: 14 })).toBe('turn 3/10 · candidate running · 14 tool calls');
    expect(runPosition({ stage: 'dialogue', turn: 1, maxTurns: 10, actor: 'examiner', toolCalls: 0 })).toBe('turn 1/10 · examiner writing');
    expect(runPosition({ stage: 'judge', turn: 1, maxTurns: 10, toolCalls: 1 })).toBe('1 turn done · judge reading the transcript · 1 tool call');
    expect(runEnded({ status: 'infra_error', result: null, overall: null, error: 'prepareRun failed: ENOENT\nstack' })).toBe('done · infra_error · prepareRun failed: ENOENT');
  });

  it('a batch says how far it is, status by status', () => {
    expect(batchPosition({ finished: 18, passed: 12, failed: 4, completed: 16, infra_error: 1, judge_failed: 1 }, 30, 1)).toBe(
      '18/30 done · 12 pass · 4 fail · 1 infra_error · 1 judge_failed · 1 running',
    );
    expect(batchSummaryLine({ cases: 3, runsPerCase: 2, candidate: { name: 'quick' }, parallelism: 4, label: 'nightly' })).toBe('nightly · 3 cases × 2 · quick · parallelism 4');
  });

  it("names the run's real run dir and host only when its worker keeps its own runs dir", () => {
    const spec = { runId: 'run-a', runsDir: '/srv/runs/' };
    expect(runPlace(spec, '/srv/runs/run-a', 'h1')).toBeNull();
    expect(runPlace(spec, '/data/evalflow/run-a', 'h1')).toBe("- run directory: `/data/evalflow/run-a` on host `h1` (that worker's runs dir, not the batch's)");
    expect(runPlace(spec, '/data/evalflow/run-a', null)).toBe("- run directory: `/data/evalflow/run-a` on its host (that worker's runs dir, not the batch's)");
  });
});
