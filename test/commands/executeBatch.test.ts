import { describe, expect, it } from 'vitest';
import { formatRunProblems, reportProgress } from '../../src/commands/executeBatch.js';
import { memoryIo } from '../../src/commands/io.js';
import type { Run } from '../../src/store/index.js';
import type { BatchProgress } from '../../src/run/progress.js';

const outcome = (runId: string, status = 'completed', result: string | null = 'pass') => ({ runId, caseId: 'c', status, result, overall: result ? 4 : null });

describe('reportProgress', () => {
  it('numbers each finished run once, in finishing order, even when several finish between two polls', () => {
    const io = memoryIo('/tmp');
    const seen = new Set<string>();
    const progress = (outcomes: BatchProgress['outcomes']): BatchProgress => ({ batchId: 'b', total: 4, started: 4, finished: outcomes.length, running: [], outcomes });
    reportProgress(progress([outcome('run-a-1')]), seen, io);
    reportProgress(progress([outcome('run-a-1'), outcome('run-a-2', 'completed', 'fail'), outcome('run-a-3', 'infra_error', null)]), seen, io);
    expect(io.stderr).toEqual(['[1/4] run-a-1: pass (overall 4)', '[2/4] run-a-2: fail (overall 4)', '[3/4] run-a-3: infra_error']);
  });
});

describe('formatRunProblems', () => {
  it('gives the reason of every run that did not complete, and where to look further', () => {
    const run = (run_id: string, status: Run['status'], error: string | null) => ({ run_id, status, error }) as Run;
    expect(
      formatRunProblems([
        run('run-a@1', 'completed', null),
        run('run-b@1', 'infra_error', 'prepareRun failed: SandboxError: project folder /x does not exist\nmore'),
        run('run-c@1', 'cancelled', null),
      ]),
    ).toEqual([
      'run-b@1: infra_error: prepareRun failed: SandboxError: project folder /x does not exist (details: evalflow show run-b@1)',
      'run-c@1: cancelled (details: evalflow show run-c@1)',
    ]);
  });
});
