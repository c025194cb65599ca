import { describe, expect, it } from 'vitest';
import { noiseForecast } from '../../src/run/noiseForecast.js';
import { untilDecidedDesign } from '../../src/run/untilDecided.js';
import { decisionChances } from '../../src/stats/decisionChances.js';
import type { CalibrationRow } from '../../src/store/index.js';

const row = (caseId: string, runs: number, passes: number, over: Partial<CalibrationRow> = {}): CalibrationRow => ({
  batch_id: 'batch-aa',
  case_id: caseId,
  case_hash: `h-${caseId}`,
  candidate: 'builtin',
  workflow_rev: null,
  runs,
  passes,
  judged_twice: 0,
  judge_flip: null,
  cost_per_run: null,
  calibrated_at: '2026-05-01T10:00:00.000Z',
  ...over,
});
const cases = (...ids: string[]) => ids.map((id) => ({ id, sha256: `h-${id}` }));

describe('noiseForecast', () => {
  const limits = { maxRunsPerCase: 60 };
  const design = untilDecidedDesign(limits);

  it('says nothing of a case the design can decide within its limit, or of one without a calibration of its version', () => {
    // Half its runs pass: a 40-point change is decided well within 60 runs, and so is no change.
    expect(decisionChances(design, 0.5, 0.1).regression).toBeGreaterThan(0.8);
    expect(noiseForecast(design, limits, cases('coin', 'new'), [row('coin', 10, 5), row('new', 10, 10, { case_hash: 'h-old' })])).toEqual([]);
  });

  it('says up front that a case which never flips will run to its limit when nothing changes', () => {
    expect(noiseForecast(design, limits, cases('steady'), [row('steady', 10, 10)])).toEqual([
      'likely to run to its limit: steady (calibrated by batch-aa: pass rate 100%, flip rate 0%): within 60 runs a side, if nothing changed it is decided unchanged with chance 0% only',
    ]);
  });

  it('calls a case too noisy when its share of --max-runs is too few runs to decide a change', () => {
    // 40 runs over 4 cases: 5 a side each.
    const tight = { maxRunsPerCase: 60, maxRuns: 40 };
    const lines = noiseForecast(design, tight, cases('a', 'b', 'c', 'd'), [row('a', 10, 7)]);
    // 7 of 10 passed: the harder direction is down to 30%, where 5 pairs rarely suffice.
    const chance = decisionChances(design, 0.7, 0.3, 5).regression;
    expect(chance).toBeLessThan(0.8);
    expect(lines).toEqual([
      `too noisy: a (calibrated by batch-aa: pass rate 70%, flip rate 47%): within 5 runs a side (its share of --max-runs 40) a 40-point change is decided with chance ${Math.round(100 * chance)}%, below 80%; expect insufficient_data unless it changes more`,
    ]);
  });

  it("counts a case's share of --budget-usd at the calibration's cost per run", () => {
    const budget = { maxRunsPerCase: 60, budgetUsd: 1 };
    // $0.10 a run, $1 for one case: 5 runs a side.
    expect(noiseForecast(design, budget, cases('a'), [row('a', 10, 7, { cost_per_run: 0.1 })])[0]).toContain('within 5 runs a side (its share of --budget-usd 1)');
  });
});
