import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { StatusJson } from '../../../src/cli/json/status.js';
import { formatStatus } from '../../../src/cli/output/statusTable.js';
import { run as show } from '../../../src/commands/show.js';
import { run as status } from '../../../src/commands/status.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { aRun } from '../../store/builders.js';
import { expectDocument } from './support.js';

const DONE = 'batch-20260301T000000-done';
const OPEN = 'batch-20260302T000000-open';
let root: string;
/** Temporal on port 1: nothing answers there, so status reads the store alone. */
let env: NodeJS.ProcessEnv;

/** DONE: three runs, one started again on host b after host a was lost. OPEN: the store says running; one run on host a, one pending. */
beforeAll(async () => {
  root = await tempDir('evalflow-json-status-');
  env = { EVALFLOW_TEMPORAL_PORT: '1' };
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await store.upsertBatch({ batch_id: DONE, status: 'completed', created_at: '2026-03-01T00:00:00.000Z', spec: { candidate: 'fake', adapter: 'command', parallelism: 2, runs_per_case: 3, total: 3 }, counts: { finished: 3, passed: 2, failed: 0, infra_error: 1 } });
    for (const [n, outcome] of (['pass', 'pass', 'infra_error'] as const).entries()) {
      const result = outcome === 'infra_error' ? null : outcome;
      await store.upsertRun(aRun({ run_id: `run-c1-fake@20260301T000000-${n + 1}`, batch_id: DONE, case_id: 'c1', attempt_index: n + 1, run_dir: join(root, 'runs', `r${n}`), status: result ? 'completed' : 'infra_error', result, overall: result ? 4 : null }));
    }
    await store.saveRunHost({ run_id: `run-c1-fake@20260301T000000-1`, generation: 0, host_id: 'host-a', claimed_at: '2026-03-01T00:00:01Z' });
    await store.saveRunHost({ run_id: `run-c1-fake@20260301T000000-1`, generation: 1, host_id: 'host-b', claimed_at: '2026-03-01T00:05:00Z' });
    await store.upsertBatch({ batch_id: OPEN, status: 'running', created_at: '2026-03-02T00:00:00.000Z', spec: { candidate: 'fake', total: 2 }, counts: { finished: 0 } });
    await store.upsertRun(aRun({ run_id: 'run-c2-fake@20260302T000000', batch_id: OPEN, case_id: 'c2', run_dir: join(root, 'runs', 'o1'), status: 'running' }));
    await store.upsertRun(aRun({ run_id: 'run-c3-fake@20260302T000000', batch_id: OPEN, case_id: 'c3', run_dir: join(root, 'runs', 'o2'), status: 'pending' }));
    await store.saveRunHost({ run_id: 'run-c2-fake@20260302T000000', generation: 0, host_id: 'host-a', claimed_at: '2026-03-02T00:00:01Z' });
  } finally {
    await store.close();
  }
});

/** The table and the --json document of one `status` call, and the exit code both gave. */
async function bothForms(batchId: string): Promise<{ table: string[]; doc: StatusJson; code: number }> {
  const tableIo = memoryIo(root, env);
  const code = await status({ batchId }, tableIo);
  const jsonIo = memoryIo(root, env);
  expect(await status({ batchId, json: true }, jsonIo)).toBe(code);
  return { table: tableIo.stdout, doc: expectDocument(StatusJson, JSON.parse(jsonIo.stdout.join('\n'))), code };
}

describe('evalflow status --json', { timeout: 30_000 }, () => {
  it('a closed batch: the status line of the table as fields, every run with its latest host', async () => {
    const { table, doc, code } = await bothForms(DONE);
    expect(code).toBe(0);
    expect(doc).toMatchObject({ batch_id: DONE, status: 'completed', live: false, planned: 3, counts: { finished: 3, passed: 2, failed: 0, infra_error: 1 }, workers: null, waiting: null, hosts: [], lost_hosts: [] });
    expect(doc.candidate).toEqual({ name: 'fake', adapter: 'command', model: null, parallelism: 2, runs_per_case: 3 });
    expect(doc.runs.map((r) => [r.run_id.slice(-1), r.status, r.result, r.stage, r.host])).toEqual([
      ['1', 'completed', 'pass', null, 'host-b'],
      ['2', 'completed', 'pass', null, null],
      ['3', 'infra_error', null, null, null],
    ]);
    expect(table).toEqual(formatStatus(doc));
    expect(table).toContain('status    completed, 3/3 finished: 2 pass, 0 fail, 1 infra_error');
    expect(table).toContain('candidate fake (command), parallelism 2, 3 run(s) per case');
    expect(table).toContain(`started   ${doc.started_at}`);
  });

  it("an open batch Temporal does not run: the store's last word and what it waits for", async () => {
    const { table, doc } = await bothForms(OPEN);
    expect(doc).toMatchObject({ status: 'running', live: false, counts: { finished: 0 }, planned: 2 });
    expect(doc.waiting).toMatch(/^for Temporal and a worker: .*`evalflow attach batch-20260302T000000-open` starts both and continues the batch$/);
    expect(doc.runs.map((r) => [r.case_id, r.status, r.host])).toEqual([
      ['c2', 'running', 'host-a'],
      ['c3', 'pending', null],
    ]);
    expect(table).toContain(`status    running, 0/2 finished: 0 pass, 0 fail (the store's last word, ${doc.store_updated_at})`);
    expect(table).toContain(`waiting   ${doc.waiting}`);
  });

  it('show BATCH --json prints the document of status', async () => {
    const shown = memoryIo(root, env);
    expect(await show({ runId: DONE, json: true }, shown)).toBe(0);
    const viaStatus = memoryIo(root, env);
    await status({ batchId: DONE, json: true }, viaStatus);
    const doc = expectDocument(StatusJson, JSON.parse(shown.stdout.join('\n')));
    expect({ ...doc, store_updated_at: null }).toEqual({ ...(JSON.parse(viaStatus.stdout.join('\n')) as StatusJson), store_updated_at: null });
  });

  it('an unknown batch: nothing on stdout, exit 3', async () => {
    const io = memoryIo(root, env);
    expect(await status({ batchId: 'batch-nope', json: true }, io)).toBe(3);
    expect(io.stdout).toEqual([]);
    expect(io.stderr.at(-1)).toMatch(/^error: no batch batch-nope/);
  });
});
