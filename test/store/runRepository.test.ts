import { describe, expect, it } from 'vitest';
import { FormatError, StoreError } from '../../src/errors.js';
import { aRun, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('runs on %s', (backend) => {
  const store = useStore(backend);

  it('upsertRun fills defaults and getRun reads the same run back', async () => {
    const runId = uniqueId('run-defaults');
    const saved = await store().upsertRun(aRun({ run_id: runId, models: { judge: 'judge-1' }, config: { parallelism: 2, tags: ['a'] } }));

    expect(saved).toMatchObject({
      run_id: runId,
      batch_id: null,
      status: 'pending',
      result: null,
      overall: null,
      models: { judge: 'judge-1' },
      config: { parallelism: 2, tags: ['a'] },
      anomalies: [],
      error: null,
      started_at: null,
    });
    expect(saved.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await store().getRun(runId)).toEqual(saved);
  });

  it('upsertRun replaces every column but keeps created_at', async () => {
    const runId = uniqueId('run-replace');
    const first = await store().upsertRun(aRun({ run_id: runId, created_at: '2026-01-02T03:04:05.000Z', workflow_rev: 'abc' }));
    const second = await store().upsertRun(aRun({ run_id: runId, created_at: '2030-01-01T00:00:00.000Z', case_version: 'v2', status: 'running' }));

    expect(first.created_at).toBe('2026-01-02T03:04:05.000Z');
    expect(second.created_at).toBe('2026-01-02T03:04:05.000Z');
    expect(second).toMatchObject({ case_version: 'v2', status: 'running', workflow_rev: null });
    expect(Date.parse(second.updated_at)).toBeGreaterThanOrEqual(Date.parse(first.updated_at));
  });

  it('updateRun changes only the given columns', async () => {
    const runId = uniqueId('run-update');
    await store().upsertRun(aRun({ run_id: runId, temporal_workflow_id: runId }));
    const updated = await store().updateRun(runId, {
      status: 'completed',
      overall: 4.25,
      anomalies: [{ kind: 'other', detail: 'turn limit hit' }, { kind: 'infra_retries', count: 1 }],
      started_at: '2026-03-01T12:00:00+02:00',
    });

    expect(updated).toMatchObject({
      status: 'completed',
      overall: 4.25,
      anomalies: [{ kind: 'other', detail: 'turn limit hit' }, { kind: 'infra_retries', count: 1 }],
      started_at: '2026-03-01T10:00:00.000Z',
      temporal_workflow_id: runId,
      case_id: 'fix-login',
    });
    expect(await store().getRun(runId)).toEqual(updated);
  });

  it('updateRun can clear a column with null', async () => {
    const runId = uniqueId('run-clear');
    await store().upsertRun(aRun({ run_id: runId, error: 'boom' }));
    expect((await store().updateRun(runId, { error: null })).error).toBeNull();
  });

  it('updateRun of an unknown run is a StoreError saying so', async () => {
    await expect(store().updateRun('run-nobody', { status: 'running' })).rejects.toThrow(
      new StoreError('store: updateRun("run-nobody") failed: no run with that run_id (upsertRun it first)'),
    );
  });

  it('rejects identity columns and unknown keys in a patch, naming the field', async () => {
    const attempt = store().updateRun('run-x', { case_id: 'other' } as never);
    await expect(attempt).rejects.toBeInstanceOf(FormatError);
    await expect(attempt).rejects.toThrow('updateRun("run-x", patch): (root): Unrecognized key: "case_id"');
  });

  it('rejects a run with an unknown status, naming the field', async () => {
    const attempt = store().upsertRun(aRun({ run_id: 'run-bad', status: 'done' as never }));
    await expect(attempt).rejects.toBeInstanceOf(FormatError);
    await expect(attempt).rejects.toThrow(/^upsertRun\(run\): status: /);
  });

  it('getRun of an unknown run is null', async () => {
    expect(await store().getRun('run-never-saved')).toBeNull();
  });

  describe('listRuns', () => {
    const batch = uniqueId('batch');
    const other = uniqueId('batch');
    const ids = { a: `${batch}-a`, b: `${batch}-b`, c: `${batch}-c`, d: `${other}-d` };

    it('filters by batch, case, candidate and status, newest first', async () => {
      await store().upsertRun(aRun({ run_id: ids.a, batch_id: batch, case_id: 'case-1', candidate: 'claude', status: 'completed', created_at: '2026-03-01T00:00:01Z' }));
      await store().upsertRun(aRun({ run_id: ids.b, batch_id: batch, case_id: 'case-2', candidate: 'claude', status: 'infra_error', created_at: '2026-03-01T00:00:02Z' }));
      await store().upsertRun(aRun({ run_id: ids.c, batch_id: batch, case_id: 'case-1', candidate: 'codex', status: 'running', created_at: '2026-03-01T00:00:03Z' }));
      await store().upsertRun(aRun({ run_id: ids.d, batch_id: other, case_id: 'case-1', candidate: 'claude', status: 'completed', created_at: '2026-03-01T00:00:04Z' }));

      const runIds = async (filter: Parameters<ReturnType<typeof store>['listRuns']>[0]) => (await store().listRuns(filter)).map((r) => r.run_id);

      expect(await runIds({ batchId: batch })).toEqual([ids.c, ids.b, ids.a]);
      expect(await runIds({ batchId: batch, caseId: 'case-1' })).toEqual([ids.c, ids.a]);
      expect(await runIds({ batchId: batch, candidate: 'claude' })).toEqual([ids.b, ids.a]);
      expect(await runIds({ batchId: batch, status: 'infra_error' })).toEqual([ids.b]);
      expect(await runIds({ batchId: batch, status: ['completed', 'running'] })).toEqual([ids.c, ids.a]);
      expect(await runIds({ caseId: 'case-1', candidate: 'claude', status: 'completed' })).toEqual(expect.arrayContaining([ids.d, ids.a]));
      expect(await runIds({ batchId: batch, limit: 2 })).toEqual([ids.c, ids.b]);
      expect(await runIds({ batchId: batch, status: [] })).toEqual([]);
    });

    it('pages in run_id order after a cursor: every run once, even runs created within one millisecond', async () => {
      const paged = uniqueId('batch');
      const made = await Promise.all(Array.from({ length: 7 }, (_, i) => store().upsertRun(aRun({ run_id: `${paged}-${i}`, batch_id: paged }))));
      const pages: string[][] = [];
      let afterRunId = '';
      for (let page = 0; page < 10; page++) {
        const runs = await store().listRuns({ batchId: paged, limit: 3, afterRunId });
        if (runs.length === 0) break;
        pages.push(runs.map((r) => r.run_id));
        afterRunId = runs.at(-1)!.run_id;
      }
      expect(pages).toEqual([made.slice(0, 3), made.slice(3, 6), made.slice(6)].map((p) => p.map((r) => r.run_id)));
    });

    it('pages newest first after a cursor through 2,000 runs: every run once, in the unpaged order, across equal and microsecond timestamps', async () => {
      const big = uniqueId('batch');
      // Ten runs share each second (ties broken by run_id), and 40 take now() as written: timestamps a JS Date would round.
      for (let i = 0; i < 1_960; i++) {
        await store().upsertRun(aRun({ run_id: `${big}-${String(i).padStart(4, '0')}`, batch_id: big, created_at: new Date(Date.UTC(2026, 2, 1) + Math.floor(i / 10) * 1_000).toISOString() }));
      }
      for (let i = 0; i < 40; i++) await store().upsertRun(aRun({ run_id: `${big}-now-${String(i).padStart(2, '0')}`, batch_id: big }));
      await store().upsertRun(aRun({ run_id: `${big}-elsewhere`, batch_id: uniqueId('batch') }));

      const unpaged = (await store().listRuns({ batchId: big })).map((r) => r.run_id);
      const paged: string[] = [];
      let olderThan: string | undefined;
      for (let page = 0; page < 20; page++) {
        const runs = await store().listRuns({ batchId: big, limit: 300, ...(olderThan ? { olderThan } : {}) });
        paged.push(...runs.map((r) => r.run_id));
        if (runs.length < 300) break;
        olderThan = runs.at(-1)!.run_id;
      }
      expect(unpaged).toHaveLength(2_000);
      expect(unpaged.slice(0, 2)).toEqual([expect.stringMatching(/-now-/), expect.stringMatching(/-now-/)]);
      expect(unpaged.at(-1)).toBe(`${big}-0000`);
      expect(unpaged.slice(-10)).toEqual(Array.from({ length: 10 }, (_, i) => `${big}-${String(9 - i).padStart(4, '0')}`));
      expect(paged).toEqual(unpaged);
      expect(await store().listRuns({ batchId: big, olderThan: `${big}-missing` })).toEqual([]);
    }, 120_000);

    it('matches a workflow_rev by its prefix, literally (LIKE wildcards are characters), and keeps only runs that ran a workflow', async () => {
      const rev = uniqueId('rev').replaceAll('-', '');
      const at = (s: number) => new Date(Date.UTC(2026, 3, 1, 0, 0, s)).toISOString();
      await store().upsertRun(aRun({ run_id: `${rev}-old`, workflow_rev: `${rev}aaaa`, created_at: at(1) }));
      await store().upsertRun(aRun({ run_id: `${rev}-new`, workflow_rev: `${rev}bbbb`, created_at: at(2) }));
      await store().upsertRun(aRun({ run_id: `${rev}-bare`, workflow_rev: `${rev}cccc`, spec: { noWorkflow: true }, created_at: at(3) }));
      await store().upsertRun(aRun({ run_id: `${rev}-wild`, workflow_rev: `${rev}_%\\x`, created_at: at(4) }));
      await store().upsertRun(aRun({ run_id: `${rev}-none`, workflow_rev: 'none', created_at: at(5) }));

      const runIds = async (filter: Parameters<ReturnType<typeof store>['listRuns']>[0]) => (await store().listRuns(filter)).map((r) => r.run_id);
      expect(await runIds({ workflowRevPrefix: rev })).toEqual([`${rev}-wild`, `${rev}-bare`, `${rev}-new`, `${rev}-old`]);
      expect(await runIds({ workflowRevPrefix: rev, withWorkflow: true, limit: 2 })).toEqual([`${rev}-wild`, `${rev}-new`]);
      expect(await runIds({ workflowRevPrefix: `${rev}a` })).toEqual([`${rev}-old`]);
      // `_` and `%` stand for themselves; so does the escape character.
      expect(await runIds({ workflowRevPrefix: `${rev}_` })).toEqual([`${rev}-wild`]);
      expect(await runIds({ workflowRevPrefix: `${rev}_%\\` })).toEqual([`${rev}-wild`]);
      expect(await runIds({ workflowRevPrefix: `${rev.slice(0, -1)}%` })).toEqual([]);
      expect(await runIds({ workflowRevPrefix: 'non', withWorkflow: true })).toEqual([]);
    });

    it('rejects an unknown filter key', async () => {
      await expect(store().listRuns({ batch: 'x' } as never)).rejects.toThrow('listRuns(filter): (root): Unrecognized key: "batch"');
    });
  });
});
