import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { aRun, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('run steps on %s', (backend) => {
  const store = useStore(backend);

  it('marks an attempt spending, then finished with usage and output; getSteps lists attempts in order', async () => {
    const runId = uniqueId('run-steps');
    await store().upsertRun(aRun({ run_id: runId }));
    const key = { run_id: runId, role: 'candidate' as const, turn: 2, attempt: 1 };
    expect(await store().markStepSpending(key, '2026-05-01T10:00:00Z')).toMatchObject({ state: 'spending', usage: null, output: null, finished_at: null });
    await store().markStepSpending({ ...key, attempt: 2 }, '2026-05-01T10:01:00Z');
    const finished = await store().finishStep({ ...key, attempt: 2 }, { usage: { input_tokens: 10, output_tokens: 3 }, output: { session: { id: 's' } }, finishedAt: '2026-05-01T10:02:00Z' });
    expect(finished).toMatchObject({ state: 'finished', usage: { input_tokens: 10, output_tokens: 3 }, output: { session: { id: 's' } }, started_at: '2026-05-01T10:01:00.000Z', finished_at: '2026-05-01T10:02:00.000Z' });
    await store().markStepSpending({ ...key, role: 'examiner', turn: 3 }, '2026-05-01T10:03:00Z');
    expect((await store().getSteps(runId, { role: 'candidate', turn: 2 })).map((s) => [s.attempt, s.state])).toEqual([
      [1, 'spending'],
      [2, 'finished'],
    ]);
    expect((await store().getSteps(runId)).map((s) => `${s.role} ${s.turn}/${s.attempt}`)).toEqual(['candidate 2/1', 'candidate 2/2', 'examiner 3/1']);
  });

  it('a repeated mark keeps the first (and a finished step stays finished); a step finished unmarked is inserted', async () => {
    const runId = uniqueId('run-steps');
    const key = { run_id: runId, role: 'judge' as const, turn: 0, attempt: 1 };
    await store().markStepSpending(key, '2026-05-01T10:00:00Z');
    expect(await store().markStepSpending(key, '2026-05-01T11:00:00Z')).toMatchObject({ started_at: '2026-05-01T10:00:00.000Z' });
    await store().finishStep(key, { usage: null, output: { verdict: 'x' }, finishedAt: '2026-05-01T10:05:00Z' });
    expect(await store().markStepSpending(key, '2026-05-01T12:00:00Z')).toMatchObject({ state: 'finished', output: { verdict: 'x' } });
    expect(await store().finishStep({ ...key, attempt: 2 }, { usage: null, output: null, finishedAt: '2026-05-01T10:06:00Z' })).toMatchObject({ state: 'finished', started_at: '2026-05-01T10:06:00.000Z' });
  });

  it('refuses an unknown role, naming the field', async () => {
    await expect(store().markStepSpending({ run_id: 'r', role: 'barista' as never, turn: 0, attempt: 1 }, '2026-05-01T10:00:00Z')).rejects.toThrow(FormatError);
  });
});
