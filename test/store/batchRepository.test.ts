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
