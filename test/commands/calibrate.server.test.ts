import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startCli } from '../support/cliProcess.js';
import { startSolverFolder, type SolverFolder } from '../support/solverFolder.js';

const CASES = ['add-truncate', 'fix-slug-dashes'] as const;

/**
 * `evalflow calibrate` as a user runs it: the real dev server, PostgreSQL, sandboxes and a
 * `command` candidate that solves both cases every time; only the model is the mock. The A/A
 * batch is a normal batch of two arms that change nothing, and its verdicts never flip.
 */
describe('evalflow calibrate', () => {
  let folder: SolverFolder;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let store: Store;

  beforeAll(async () => {
    folder = await startSolverFolder('calibrate', CASES, { solver: [] });
    ({ root, env, store } = folder);
  });

  afterAll(async () => {
    await folder?.close();
  });

  it('runs each case k times a side, interleaved, and stores a flip rate of 0 per case version', async () => {
    await folder.startWorker();
    const cli = startCli(['calibrate', '--no-worker', '--candidate', 'solver', '--runs-per-case', '2', '--parallelism', '4', '--json'], { cwd: root, env });
    const code = await cli.exited;
    expect(code, cli.stderr.join('\n')).toBe(0);
    const doc = JSON.parse(cli.stdout.join('\n')) as { batch_id: string; cases: { case_id: string; runs: number; passes: number; flip_rate: number | null }[] };
    expect(doc.cases.map((c) => [c.case_id, c.runs, c.passes, c.flip_rate])).toEqual(CASES.map((id) => [id, 4, 4, 0]));
    const runs = await store.listRuns({ batchId: doc.batch_id });
    for (const id of CASES) expect(runs.filter((r) => r.case_id === id).map((r) => r.arm).sort()).toEqual(['A1', 'A1', 'A2', 'A2']);
    const rows = await store.latestCalibrations([...CASES]);
    expect(rows.map((r) => [r.case_id, r.batch_id, r.runs, r.passes, r.candidate])).toEqual(CASES.map((id) => [id, doc.batch_id, 4, 4, 'solver']));
    expect(rows.map((r) => r.case_hash)).toEqual(CASES.map((id) => runs.find((r) => r.case_id === id)!.case_hash));
  }, 600_000);
});
