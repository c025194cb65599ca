import { describe, expect, it } from 'vitest';
import { formatRunProblems, formatUncontained } from '../../../src/cli/output/runTable.js';
import type { Run } from '../../../src/store/index.js';

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

describe('formatUncontained', () => {
  const run = (run_id: string, isolation: string | undefined) => ({ run_id, spec: { candidate: isolation ? { isolation } : {} }, config: {} }) as unknown as Run;

  it('names the runs that ran uncontained, a run of an earlier version among them', () => {
    expect(formatUncontained([run('run-a@1', 'sandbox'), run('run-b@1', 'none'), run('run-c@1', undefined)])).toEqual(['uncontained: 2 of 3 runs (isolation: none): run-b@1, run-c@1']);
  });

  it('names none when every run ran uncontained, and at most five otherwise', () => {
    expect(formatUncontained([run('run-a@1', 'none'), run('run-b@1', 'none')])).toEqual(['uncontained: 2 of 2 runs (isolation: none)']);
    const many = [run('run-ok@1', 'sandbox'), ...Array.from({ length: 7 }, (_, i) => run(`run-${i}@1`, 'none'))];
    expect(formatUncontained(many)).toEqual(['uncontained: 7 of 8 runs (isolation: none): run-0@1, run-1@1, run-2@1, run-3@1, run-4@1 and 2 more']);
  });

  it('says nothing when every run was contained', () => {
    expect(formatUncontained([run('run-a@1', 'sandbox'), run('run-b@1', 'sandbox')])).toEqual([]);
  });
});
