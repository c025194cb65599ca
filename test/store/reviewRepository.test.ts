import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { aRun, aScore, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

const decision = { result: 'pass' as const, author: 'alice', note: 'checked by hand', judge_result: null, reasons: ['hard requirement 2 not assessed'], decided_at: '2026-05-01T10:00:00Z' };

describe.each(BACKENDS)('run reviews on %s', (backend) => {
  const store = useStore(backend);

  it('keeps the first decision on a run and hands it back to a second one, beside the judge verdict', async () => {
    const runId = uniqueId('run-review');
    await store().upsertRun(aRun({ run_id: runId, status: 'needs_review' }));
    await store().saveScore(runId, aScore({ judged_at: '2026-05-01T09:00:00Z', result: null }));
    expect(await store().getReview(runId)).toBeNull();
    expect(await store().saveReview(runId, decision)).toEqual({ run_id: runId, ...decision, decided_at: '2026-05-01T10:00:00.000Z' });
    const second = await store().saveReview(runId, { ...decision, result: 'fail', author: 'bob' });
    expect(second).toMatchObject({ result: 'pass', author: 'alice' });
    expect(await store().getReview(runId)).toMatchObject({ result: 'pass', author: 'alice', reasons: ['hard requirement 2 not assessed'] });
    // The judge's verdict is its own row, untouched: here it had no result at all.
    expect((await store().getScore(runId))?.result).toBeNull();
    expect((await store().getRun(runId))?.status).toBe('needs_review');
  });

  it('refuses a decision on a run that is not in the store', async () => {
    await expect(store().saveReview(uniqueId('run-nope'), decision)).rejects.toThrow(StoreError);
    await expect(store().saveReview(uniqueId('run-nope'), decision)).rejects.toThrow(/expected a row in runs for run_id .*, found none/);
  });
});
