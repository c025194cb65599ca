import { describe, expect, it } from 'vitest';
import { FormatError, StoreError } from '../../src/errors.js';
import { aRun, aScore, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('scores on %s', (backend) => {
  const store = useStore(backend);

  async function newRun(prefix: string, fields: Partial<Parameters<typeof aRun>[0]> = {}): Promise<string> {
    const runId = uniqueId(prefix);
    await store().upsertRun(aRun({ run_id: runId, ...fields }));
    return runId;
  }

  it('saveScore stores the verdict, getScore reads it back, and the run gets its result', async () => {
    const runId = await newRun('run-score');
    const score = aScore({ judged_at: '2026-03-01T10:00:00Z', hard_requirements: [{ item: 'tests', met: true, evidence: 'shell: npm test → exit=0', extra: 1 }] });
    const saved = await store().saveScore(runId, score);

    expect(saved).toEqual({ run_id: runId, ...score, judged_at: '2026-03-01T10:00:00.000Z' });
    expect(await store().getScore(runId)).toEqual(saved);
    expect(await store().getRun(runId)).toMatchObject({ result: 'pass', overall: 3.75 });
  });

  it('a rejudge replaces the score and appends to the history', async () => {
    const runId = await newRun('run-rejudge', { case_id: uniqueId('case') });
    await store().saveScore(runId, aScore({ judged_at: '2026-03-01T10:00:00Z' }));
    await store().saveScore(runId, aScore({ judged_at: '2026-03-02T10:00:00Z', result: 'fail', overall: 1.5, salvaged: true }));

    expect(await store().getScore(runId)).toMatchObject({ result: 'fail', overall: 1.5, salvaged: true, judged_at: '2026-03-02T10:00:00.000Z' });
    expect(await store().getRun(runId)).toMatchObject({ result: 'fail', overall: 1.5 });
    const history = (await store().scoreHistory()).filter((h) => h.run_id === runId);
    expect(history.map((h) => [h.judged_at, h.result])).toEqual([
      ['2026-03-01T10:00:00.000Z', 'pass'],
      ['2026-03-02T10:00:00.000Z', 'fail'],
    ]);
  });

  it('saving the same verdict twice (a retry) keeps one history row', async () => {
    const runId = await newRun('run-retry');
    const score = aScore({ judged_at: '2026-03-01T10:00:00Z' });
    await store().saveScore(runId, score);
    await store().saveScore(runId, score);
    expect((await store().scoreHistory()).filter((h) => h.run_id === runId)).toHaveLength(1);
  });

  it('a late retry of an older verdict never undoes a newer one', async () => {
    const runId = await newRun('run-late');
    await store().saveScore(runId, aScore({ judged_at: '2026-03-02T00:00:00Z', result: 'fail', overall: 1 }));
    const current = await store().saveScore(runId, aScore({ judged_at: '2026-03-01T00:00:00Z', result: 'pass', overall: 5 }));

    expect(current).toMatchObject({ result: 'fail', judged_at: '2026-03-02T00:00:00.000Z' });
    expect(await store().getRun(runId)).toMatchObject({ result: 'fail', overall: 1 });
    expect((await store().scoreHistory()).filter((h) => h.run_id === runId)).toHaveLength(2);
  });

  it('scoreHistory joins run facts, filters by case and candidate, and keeps the latest `limit` oldest first', async () => {
    const caseId = uniqueId('case-trend');
    const a = await newRun('run-a', { case_id: caseId, candidate: 'claude', workflow_rev: 'rev1', finished_at: '2026-03-01T00:10:00Z', batch_id: 'batch-1' });
    const b = await newRun('run-b', { case_id: caseId, candidate: 'claude', workflow_rev: 'rev2' });
    const c = await newRun('run-c', { case_id: caseId, candidate: 'codex', workflow_rev: 'rev2' });
    await store().saveScore(a, aScore({ judged_at: '2026-03-01T01:00:00Z' }));
    await store().saveScore(b, aScore({ judged_at: '2026-03-02T01:00:00Z', result: 'fail' }));
    await store().saveScore(c, aScore({ judged_at: '2026-03-03T01:00:00Z' }));

    const claude = await store().scoreHistory({ caseId, candidate: 'claude' });
    expect(claude.map((h) => h.run_id)).toEqual([a, b]);
    expect(claude[0]).toEqual({
      run_id: a,
      result: 'pass',
      compliance: 4,
      execution_quality: 3.5,
      overall: 3.75,
      summary: 'Followed the workflow.',
      hard_requirements: [{ item: 'ran the tests', met: true, evidence: 'shell: go test ./... → exit=0' }],
      suggestions: ['[workflow] name the test command in the skill'],
      judge_model: 'judge-model-1',
      judged_at: '2026-03-01T01:00:00.000Z',
      salvaged: false,
      case_id: caseId,
      case_version: 'v1',
      candidate: 'claude',
      batch_id: 'batch-1',
      workflow_rev: 'rev1',
      finished_at: '2026-03-01T00:10:00.000Z',
    });
    expect((await store().scoreHistory({ caseId })).map((h) => h.run_id)).toEqual([a, b, c]);
    expect((await store().scoreHistory({ caseId, limit: 2 })).map((h) => h.run_id)).toEqual([b, c]);
  });

  it('a score for an unknown run is a StoreError saying so', async () => {
    await expect(store().saveScore('run-ghost', aScore({ judged_at: '2026-03-01T00:00:00Z' }))).rejects.toThrow(
      new StoreError('store: saveScore("run-ghost") failed: expected a row in runs for run_id "run-ghost", found none (upsertRun first)'),
    );
  });

  it('a score out of 0–5 is a FormatError naming the field', async () => {
    const attempt = store().saveScore('run-x', aScore({ judged_at: '2026-03-01T00:00:00Z', overall: 7 }));
    await expect(attempt).rejects.toBeInstanceOf(FormatError);
    await expect(attempt).rejects.toThrow(/^saveScore\("run-x", score\): overall: /);
  });

  it('getScore of an unjudged run is null', async () => {
    expect(await store().getScore(await newRun('run-unjudged'))).toBeNull();
  });
});
