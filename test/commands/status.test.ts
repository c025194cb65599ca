import { describe, expect, it } from 'vitest';
import { formatCounts } from '../../src/cli/batch/counts.js';
import { progressCounts } from '../../src/commands/status.js';
import type { BatchProgress } from '../../src/run/progress.js';

const progress: BatchProgress = {
  batchId: 'batch-1',
  total: 5,
  started: 5,
  finished: 4,
  running: ['run-5'],
  outcomes: [
    { runId: 'run-1', caseId: 'a', status: 'completed', result: 'pass', overall: 4 },
    { runId: 'run-2', caseId: 'a', status: 'needs_review', result: null, overall: null },
    { runId: 'run-3', caseId: 'b', status: 'infra_error', result: null, overall: null },
    { runId: 'run-4', caseId: 'b', status: 'completed', result: 'fail', overall: 2 },
  ],
};

describe('progressCounts', () => {
  it('counts every final status, needs_review included, as the batch row does', () => {
    const counts = progressCounts(progress);
    expect(counts).toMatchObject({ finished: 4, passed: 1, failed: 1, needs_review: 1, infra_error: 1, aborted: 0 });
    expect(formatCounts(counts, 5)).toBe('4/5 finished: 1 pass, 1 fail, 1 needs_review, 1 infra_error');
  });
});
