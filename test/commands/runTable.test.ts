import { describe, expect, it } from 'vitest';
import { formatRunProblems } from '../../src/commands/runTable.js';
import type { Run } from '../../src/store/index.js';

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
