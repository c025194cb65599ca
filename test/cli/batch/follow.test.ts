import { describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { createProgressPrinter, failureText } from '../../../src/cli/batch/follow.js';
import { memoryIo } from '../../../src/cli/io.js';
import type { BatchProgress } from '../../../src/run/progress.js';
import type { Run } from '../../../src/store/index.js';

type Outcome = BatchProgress['outcomes'][number];
const outcome = (runId: string, status: Outcome['status'] = 'completed', result: Outcome['result'] = 'pass'): Outcome => ({ runId, caseId: 'c', status, result, overall: result ? 4 : null });
const progress = (outcomes: BatchProgress['outcomes'], total = 4): BatchProgress => ({ batchId: 'b', total, started: total, finished: outcomes.length, running: [], outcomes });
const row = (run_id: string, finished_at: string, status: Run['status'] = 'completed') =>
  ({ run_id, status, result: status === 'completed' ? 'pass' : null, overall: status === 'completed' ? 4 : null, finished_at }) as Run;

describe('createProgressPrinter', () => {
  it('numbers each finished run once, in finishing order, even when several finish between two polls', () => {
    const io = memoryIo('/tmp');
    const printer = createProgressPrinter(io);
    printer.outcomes(progress([outcome('run-a-1')]));
    printer.outcomes(progress([outcome('run-a-1'), outcome('run-a-2', 'completed', 'fail'), outcome('run-a-3', 'infra_error', null)]));
    expect(io.stderr).toEqual(['[1/4] run-a-1: pass (overall 4)', '[2/4] run-a-2: fail (overall 4)', '[3/4] run-a-3: infra_error']);
  });

  it('prints the runs that finished after the last answer from the store once, numbered on, in finishing order', () => {
    const io = memoryIo('/tmp');
    const printer = createProgressPrinter(io);
    printer.outcomes(progress([outcome('run-a-1')], 3));
    const runs = [row('run-a-1', '2026-01-01T00:00:01Z'), row('run-a-2', '2026-01-01T00:00:05Z'), row('run-a-3', '2026-01-01T00:00:03Z', 'cancelled')];
    printer.rest(runs, 3);
    // A late progress answer (a poll that was in flight) must not print them again.
    printer.outcomes(progress([outcome('run-a-1'), outcome('run-a-3', 'cancelled', null), outcome('run-a-2')], 3));
    printer.rest(runs, 3);
    expect(io.stderr).toEqual(['[1/3] run-a-1: pass (overall 4)', '[2/3] run-a-3: cancelled', '[3/3] run-a-2: pass (overall 4)']);
  });

  it('after attaching, counts what finished before without printing it, even beyond the query window', () => {
    const io = memoryIo('/tmp');
    const printer = createProgressPrinter(io);
    // 3 finished before attaching, only the last 2 still in the answer's window.
    printer.skip(3, ['run-b', 'run-c']);
    printer.outcomes(progress([outcome('run-b'), outcome('run-c'), outcome('run-d')], 5));
    const runs = ['run-a', 'run-b', 'run-c', 'run-d', 'run-e'].map((id, i) => row(id, `2026-01-01T00:00:0${i}Z`));
    printer.rest(runs, 5);
    expect(io.stderr).toEqual(['[4/5] run-d: pass (overall 4)', '[5/5] run-e: pass (overall 4)']);
  });
});

describe('failureText', () => {
  it("gives what the activity threw (a planning failure's host and problem lines), not the wrapper's words", () => {
    const thrown = ApplicationFailure.create({ message: 'batch b cannot be planned on host host-b: 1 problem in s:\n  p', type: 'FormatError', nonRetryable: true });
    const failed = new WorkflowFailedError('Workflow execution failed', new ActivityFailure('Activity task failed', 'planBatch', '1', 'NON_RETRYABLE_FAILURE', 'w', thrown), 'NON_RETRYABLE_FAILURE');
    expect(failureText(failed)).toBe('batch b cannot be planned on host host-b: 1 problem in s:\n  p');
    expect(failureText(new WorkflowFailedError('Workflow execution failed', ApplicationFailure.create({ message: 'own words' }), 'NON_RETRYABLE_FAILURE'))).toBe('own words');
  });
});
