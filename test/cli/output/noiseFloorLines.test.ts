import { describe, expect, it } from 'vitest';
import { noiseFloorJson, noiseFloorLines } from '../../../src/cli/output/noiseFloorLines.js';
import { noiseFloor } from '../../../src/summaries/noiseFloor.js';
import type { CalibrationRow } from '../../../src/store/index.js';

const side = (completed: number) => ({ completed });
const calibration = (caseId: string, over: Partial<CalibrationRow> = {}): CalibrationRow => ({
  batch_id: 'batch-aa',
  case_id: caseId,
  case_hash: 'h1',
  candidate: 'builtin',
  workflow_rev: null,
  runs: 10,
  passes: 8,
  judged_twice: 0,
  judge_flip: null,
  cost_per_run: null,
  calibrated_at: '2026-05-01T10:00:00.000Z',
  ...over,
});

describe('noiseFloorLines', () => {
  it("gives each calibrated case's flip rate and how far two identical sides with the comparison's runs differ", () => {
    const cases = [
      { caseId: 'x', a: side(5), b: side(5) },
      { caseId: 'y', a: side(5), b: side(5) },
      { caseId: 'z', a: side(5), b: side(5) },
    ];
    const sideA = new Map([['x', 'h1'], ['y', 'h2'], ['z', 'h1']]);
    // y's calibration is of another version; z was judged again: 0.1 of its 0.36 is the judge's.
    const floor = noiseFloor(cases, sideA, [calibration('x'), calibration('y'), calibration('z', { judged_twice: 4, judge_flip: 0.1 })]);
    const lines = noiseFloorLines(floor);
    // 8 of 10: 16 of 45 pairs disagree, Wilson's 0.943 at the top gives 11% at the bottom; ±1.96·√(0.356/2 · (1/5 + 1/5)) = ±0.52.
    expect(lines).toEqual([
      '',
      'noise floor (evalflow calibrate, of the case versions A ran):',
      '  x  flips 36% of pairs (11%…50%): two identical sides with 5/5 runs differ by up to ±52 points (calibrated by batch-aa)',
      // z's judge share, 0.1 of 4 runs judged twice: Wilson's interval of 0.4 in 4 is 0.9%…58%, capped at 50%;
      // the agent's 0.256 − √(0.246² + 0.4²) < 0 … 0.256 + √(0.144² + 0.091²) = 0.426.
      '  z  flips 36% of pairs (11%…50%); judge 10% (1%…50%), agent 26% (0%…43%): two identical sides with 5/5 runs differ by up to ±52 points (calibrated by batch-aa)',
    ]);
    // --json says the same, per case.
    const json = noiseFloorJson(floor);
    expect(json!.map((c) => [c.case_id, c.calibrated_by, c.runs_a, c.runs_b])).toEqual([
      ['x', 'batch-aa', 5, 5],
      ['z', 'batch-aa', 5, 5],
    ]);
    expect(json![0]!.spread).toBeCloseTo(1.959964 * Math.sqrt((16 / 45 / 2) * (2 / 5)), 5);
    expect(json![0]).toMatchObject({ flip_rate: 16 / 45, judge_flip: null, agent_flip: null });
    expect(json![1]!.judge_flip).toBe(0.1);
    expect(json![1]!.agent_flip).toBeCloseTo(16 / 45 - 0.1, 12);
  });

  it('prints nothing without a calibration of a compared version', () => {
    expect(noiseFloorLines(noiseFloor([{ caseId: 'x', a: side(3), b: side(3) }], new Map([['x', 'h1']]), []))).toEqual([]);
  });
});
