import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('batches on %s', (backend) => {
  const store = useStore(backend);

  it('upsertBatch stores a batch and getBatch reads it back', async () => {
    const batchId = uniqueId('batch');
    const saved = await store().upsertBatch({ batch_id: batchId, spec: { cases: ['a', 'b'], parallelism: 4 }, created_at: '2026-03-01T00:00:00Z' });
    expect(saved).toMatchObject({ batch_id: batchId, status: 'pending', spec: { cases: ['a', 'b'], parallelism: 4 }, counts: {}, created_at: '2026-03-01T00:00:00.000Z' });
    expect(await store().getBatch(batchId)).toEqual(saved);
  });

  it('a second upsert replaces status and counts but keeps created_at', async () => {
    const batchId = uniqueId('batch');
    await store().upsertBatch({ batch_id: batchId, created_at: '2026-03-01T00:00:00Z' });
    const updated = await store().upsertBatch({ batch_id: batchId, status: 'completed', counts: { pass: 3, fail: 1 } });
    expect(updated).toMatchObject({ status: 'completed', counts: { pass: 3, fail: 1 }, created_at: '2026-03-01T00:00:00.000Z' });
  });

  it('getBatch of an unknown batch is null', async () => {
    expect(await store().getBatch('batch-nobody')).toBeNull();
  });

  it('rejects negative counts, naming the field', async () => {
    await expect(store().upsertBatch({ batch_id: 'b', counts: { pass: -1 } })).rejects.toThrow(FormatError);
    await expect(store().upsertBatch({ batch_id: 'b', counts: { pass: -1 } })).rejects.toThrow(/^upsertBatch\(batch\): counts\.pass: /);
  });
});

describe.each(BACKENDS)('batch updates, listing and plans on %s', (backend) => {
  const store = useStore(backend);

  it('updateBatch changes status and counts only, and refuses an unknown batch', async () => {
    const batchId = uniqueId('batch');
    await store().upsertBatch({ batch_id: batchId, status: 'running', spec: { total: 3 }, created_at: '2026-03-01T00:00:00Z' });
    const updated = await store().updateBatch(batchId, { counts: { finished: 1, completed: 1 } });
    expect(updated).toMatchObject({ status: 'running', spec: { total: 3 }, counts: { finished: 1, completed: 1 }, created_at: '2026-03-01T00:00:00.000Z' });
    expect(await store().updateBatch(batchId, { status: 'completed' })).toMatchObject({ status: 'completed', counts: { finished: 1, completed: 1 } });
    await expect(store().updateBatch('batch-nobody', { status: 'failed' })).rejects.toThrow(/no batch with that batch_id/);
  });

  it('listBatches lists newest first, filtered by status', async () => {
    const old = uniqueId('batch-old');
    const recent = uniqueId('batch-new');
    await store().upsertBatch({ batch_id: old, status: 'completed', created_at: '2030-01-01T00:00:00Z' });
    await store().upsertBatch({ batch_id: recent, status: 'running', created_at: '2030-01-02T00:00:00Z' });
    expect((await store().listBatches({ limit: 2 })).map((b) => b.batch_id)).toEqual([recent, old]);
    expect((await store().listBatches({ status: 'running' })).map((b) => b.batch_id)).toContain(recent);
    expect((await store().listBatches({ status: 'running' })).map((b) => b.batch_id)).not.toContain(old);
  });

  it('listBatches pages newest first after a cursor: every batch once, ties on created_at broken by batch_id', async () => {
    const prefix = uniqueId('batch-page');
    for (let i = 0; i < 45; i++) {
      await store().upsertBatch({ batch_id: `${prefix}-${String(i).padStart(2, '0')}`, status: 'completed', created_at: new Date(Date.UTC(2031, 0, 1) + Math.floor(i / 3) * 60_000).toISOString() });
    }
    const ours = (batches: { batch_id: string }[]) => batches.map((b) => b.batch_id).filter((id) => id.startsWith(prefix));
    const unpaged = ours(await store().listBatches({}));
    const paged: string[] = [];
    let olderThan: string | undefined;
    for (let page = 0; page < 10; page++) {
      const batches = await store().listBatches({ limit: 10, ...(olderThan ? { olderThan } : {}) });
      paged.push(...ours(batches));
      if (batches.length < 10) break;
      olderThan = batches.at(-1)!.batch_id;
    }
    expect(unpaged).toEqual(Array.from({ length: 45 }, (_, i) => `${prefix}-${String(44 - i).padStart(2, '0')}`));
    expect(paged).toEqual(unpaged);
    expect(await store().listBatches({ olderThan: `${prefix}-missing` })).toEqual([]);
  });

  it('savePlan writes a plan once (a retry keeps the first), getPlan reads pages in order, countPlan counts', async () => {
    const batchId = uniqueId('batch-plan');
    const entries = Array.from({ length: 2_500 }, (_, idx) => ({ idx, case_id: `case-${idx % 7}`, case_dir: `/bank/case-${idx % 7}`, case_hash: 'h', k: (idx % 3) + 1, arm: idx % 2 === 0 ? 'A' : null, case_pack: idx % 3 === 0 ? `sha256:pack-${idx % 7}` : null }));
    expect(await store().savePlan(batchId, entries)).toEqual({ inserted: 2_500 });
    expect(await store().savePlan(batchId, entries.map((e) => ({ ...e, case_hash: 'changed' })))).toEqual({ inserted: 0 });
    expect(await store().countPlan(batchId)).toBe(2_500);
    const page = await store().getPlan(batchId, 1_998, 5);
    expect(page).toEqual(entries.slice(1_998, 2_003));
    expect(await store().getPlan(batchId, 2_499, 100)).toEqual([entries[2_499]]);
    expect(await store().countPlan('batch-never-planned')).toBe(0);
    await expect(store().savePlan(batchId, [{ idx: -1, case_id: 'x', case_dir: '/x', case_hash: 'h', k: null, arm: null }])).rejects.toThrow(FormatError);
  });
});
