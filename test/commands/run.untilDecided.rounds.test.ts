import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import { openCases, settleRound, startDecisions, untilDecidedDesign } from '../../src/run/untilDecided.js';
import type { Store } from '../../src/store/index.js';
import { startCli } from '../support/cliProcess.js';
import type { TestTemporal } from '../support/temporalServer.js';
import { startSolverFolder, type SolverFolder } from '../support/solverFolder.js';

const MAX_RUNS_PER_CASE = 8;
/** B breaks this case every time: a clear regression. */
const CLEAR = 'add-truncate';
/** Both arms solve this one every time: nothing to find. */
const FLAT = 'fix-slug-dashes';

/**
 * `evalflow run --until-decided` as a user runs it, against a separate `evalflow worker` that is
 * killed with SIGKILL mid-batch and started again: the real dev server, PostgreSQL, sandboxes
 * and `command` candidates (A solves both cases, B breaks one); only the model is the mock.
 */
describe('evalflow run --until-decided', () => {
  let folder: SolverFolder;
  let temporal: TestTemporal;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let store: Store;

  beforeAll(async () => {
    // The solver writes both reference solutions; the breaker breaks CLEAR.
    folder = await startSolverFolder('rounds', [CLEAR, FLAT], { solver: [], breaker: [CLEAR] });
    ({ temporal, root, env, store } = folder);
  });

  afterAll(async () => {
    await folder?.close();
  });

  it('stops the clear case early as a regression, runs the flat one to its limit, and a worker killed mid-batch changes no decision', async () => {
    let worker = await folder.startWorker();
    const cli = startCli(
      ['run', '--no-worker', '--candidate', 'solver', '--arm', 'A=base', '--arm', 'B=candidate=breaker', '--until-decided', '--max-runs-per-case', String(MAX_RUNS_PER_CASE), '--parallelism', '4'],
      { cwd: root, env },
    );
    // Kill the worker while round 3's runs are under way: two rounds settled, more to come.
    await cli.waitForLine(/^round 2: /, 300_000);
    const batchId = /^batch (batch-\S+):/.exec(cli.stderr.find((l) => /^batch batch-\S+:/.test(l))!)![1]!;
    await new Promise((r) => setTimeout(r, 1_500));
    worker.kill('SIGKILL');
    await worker.exited;
    const finishedAtKill = (await store.listRuns({ batchId })).filter((r) => r.status === 'completed').length;
    worker = await folder.startWorker();
    const code = await cli.exited;
    const out = cli.stdout.join('\n');
    expect(code, `${out}\n${cli.stderr.join('\n')}`).toBe(0);
    expect(finishedAtKill).toBeLessThan(24);

    // While following: each case's runs so far, its interval, and open or decided.
    expect(cli.stderr.some((l) => new RegExp(`^ {2}${CLEAR} {2}2 runs a side {2}B−A −100 \\(−\\d+…−\\d+\\) {2}open: e = `).test(l))).toBe(true);
    expect(cli.stderr.some((l) => new RegExp(`^ {2}${FLAT} {2}2 runs a side {2}B−A ±0 .* {2}open: e = 1\\.00 of `).test(l))).toBe(true);

    // What the sequential test decides for these verdicts, round by round, with no worker killed.
    const design = untilDecidedDesign({ maxRunsPerCase: MAX_RUNS_PER_CASE });
    let expected = startDecisions([CLEAR, FLAT]);
    while (openCases(expected).length > 0) {
      expected = settleRound(design, expected, openCases(expected).map((caseId) => ({ caseId, a: 'pass' as const, b: caseId === CLEAR ? ('fail' as const) : ('pass' as const) })));
    }
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const result = (await new Client({ connection }).workflow.getHandle(batchId).result()) as BatchResult;
      expect(result.rounds?.decisions).toEqual(expected);
      expect(result.rounds).toMatchObject({ round: MAX_RUNS_PER_CASE, stop: null, spent: { runs: 28, usd: null } });
    } finally {
      await connection.close();
    }
    const [clear, flat] = expected;
    expect(clear).toMatchObject({ rounds: 6, stopped: { label: 'regression', stoppedBy: 'evidence' } });
    expect(flat).toMatchObject({ rounds: MAX_RUNS_PER_CASE, stopped: { label: 'insufficient_data', stoppedBy: 'limit' } });

    // The labels printed are the test's, and the runs were spent where the answer was open.
    expect(out).toMatch(new RegExp(`^regression {8}${CLEAR} {2}6 runs a side {2}B−A −100 .* decided: e = \\d+\\.\\d+ reached \\d+\\.\\d+ after 6 pairs`, 'm'));
    expect(out).toMatch(new RegExp(`^insufficient_data ${FLAT} {2}8 runs a side {2}B−A ±0 .* per-case limit: reached the limit of 8 pairs with e = 1\\.00`, 'm'));
    expect(out).toContain('1 of 2 cases decided in 8 rounds, 28 runs');
    const runs = await store.listRuns({ batchId });
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const count = (caseId: string, arm: string) => runs.filter((r) => r.case_id === caseId && r.arm === arm).length;
    expect([count(CLEAR, 'A'), count(CLEAR, 'B'), count(FLAT, 'A'), count(FLAT, 'B')]).toEqual([6, 6, 8, 8]);
    expect(runs.filter((r) => r.case_id === CLEAR && r.arm === 'B').every((r) => r.result === 'fail')).toBe(true);

    // The store keeps the decisions; attach and compare read them back, not a test of the 28 runs against a plan of 32.
    expect((await store.getBatchDecisions(batchId)).map((d) => [d.case_id, d.label, d.stopped_by, d.runs_a_side])).toEqual([
      [CLEAR, 'regression', 'evidence', 6],
      [FLAT, 'insufficient_data', 'limit', MAX_RUNS_PER_CASE],
    ]);
    const attach = startCli(['attach', batchId, '--no-worker'], { cwd: root, env });
    expect(await attach.exited, attach.stderr.join('\n')).toBe(0);
    expect(attach.stdout.join('\n')).toContain('1 of 2 cases decided in 8 rounds, 28 runs');
    const compare = startCli(['compare', 'A', 'B', '--batch', batchId, '--json'], { cwd: root, env });
    expect(await compare.exited).toBe(1);
    const compared = JSON.parse(compare.stdout.join('\n')) as { method: string; cases: { case_id: string; label: string }[] };
    expect(compared.method).toBe('sequential_test');
    expect(compared.cases.map((c) => [c.case_id, c.label])).toEqual([
      [CLEAR, 'regression'],
      [FLAT, 'insufficient_data'],
    ]);
  }, 900_000);
});
