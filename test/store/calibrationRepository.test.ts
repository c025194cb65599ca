import { describe, expect, it } from 'vitest';
import type { CalibrationRow } from '../../src/store/index.js';
import { uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

const calibration = (caseId: string, over: Partial<CalibrationRow> = {}): CalibrationRow => ({
  batch_id: 'batch-1',
  case_id: caseId,
  case_hash: 'h1',
  candidate: 'builtin',
  workflow_rev: null,
  runs: 10,
  passes: 6,
  judged_twice: 0,
  judge_flip: null,
  cost_per_run: null,
  calibrated_at: '2026-05-01T10:00:00.000Z',
  ...over,
});

describe.each(BACKENDS)('case calibrations on %s', (backend) => {
  const store = useStore(backend);

  it('keeps the newest calibration of each case version, and replaces a batch measured again', async () => {
    const [a, b] = [uniqueId('case-a'), uniqueId('case-b')];
    await store().saveCalibration(calibration(a));
    await store().saveCalibration(calibration(a, { batch_id: 'batch-2', passes: 9, calibrated_at: '2026-05-02T10:00:00.000Z' }));
    await store().saveCalibration(calibration(a, { batch_id: 'batch-3', case_hash: 'h2', passes: 1, calibrated_at: '2026-05-01T09:00:00.000Z' }));
    // batch-1 measured again, after its transcripts were judged more: the row is replaced, still older than batch-2.
    const again = await store().saveCalibration(calibration(a, { judged_twice: 4, judge_flip: 0.125, cost_per_run: 0.02 }));
    expect(again).toMatchObject({ judged_twice: 4, judge_flip: 0.125, cost_per_run: 0.02 });
    await store().saveCalibration(calibration(b, { runs: 4, passes: 4, workflow_rev: 'abc' }));
    const latest = await store().latestCalibrations([a, b]);
    expect(latest.map((c) => [c.case_id === a ? 'a' : 'b', c.case_hash, c.batch_id, c.passes])).toEqual([
      ['a', 'h1', 'batch-2', 9],
      ['a', 'h2', 'batch-3', 1],
      ['b', 'h1', 'batch-1', 4],
    ]);
    expect(latest[2]).toEqual(calibration(b, { runs: 4, passes: 4, workflow_rev: 'abc' }));
    expect(await store().latestCalibrations([])).toEqual([]);
  });

  it('refuses a row that cannot be, naming the method', async () => {
    await expect(store().saveCalibration(calibration(uniqueId('case'), { judge_flip: 0.9 }))).rejects.toThrow(/saveCalibration/);
  });
});
