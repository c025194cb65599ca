import { describe, expect, it } from 'vitest';
import { formatRunProblems, formatRunTable, formatUncontained, hostsByRun } from '../../../src/cli/output/runTable.js';
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

describe('formatRunTable with hosts', () => {
  it("names each run's hosts, attempt after attempt, and - for a run no host claimed", () => {
    const claim = (run_id: string, generation: number, host_id: string) => ({ run_id, generation, host_id, claimed_at: '2026-05-01T10:00:00Z' });
    // Listed out of order: the arrow follows the attempts.
    const hosts = hostsByRun([claim('run-b@1', 1, 'host-c'), claim('run-a@1', 0, 'host-a'), claim('run-b@1', 0, 'host-b')]);
    expect([...hosts]).toEqual([
      ['run-a@1', 'host-a'],
      ['run-b@1', 'host-b→host-c'],
    ]);
    const run = (run_id: string) => ({ run_id, case_id: 'c', status: 'completed', result: 'pass', overall: 1, run_dir: `/w/runs/${run_id}` }) as Run;
    const table = formatRunTable([run('run-a@1'), run('run-b@1'), run('run-c@1')], '/w', hosts);
    expect(table[0]).toMatch(/^case\s+status\s+result\s+overall\s+host\s+run dir$/);
    expect(table.slice(-3).map((line) => line.split(/\s+/)[4])).toEqual(['host-a', 'host-b→host-c', '-']);
  });
});
