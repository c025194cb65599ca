import { describe, expect, it } from 'vitest';
import { fixedSampleSize } from '../../src/stats/fixedSampleSize.js';
import { sequentialDesign } from '../../src/stats/sequential.js';
import { simulateSequential } from '../../src/stats/simulateSequential.js';

// The benchmark's simulation (bench/sequential.ts) with fewer comparisons: the same design, the same goals.
describe('simulateSequential', () => {
  const design = sequentialDesign({ maxPairs: 60 });
  const comparisons = 2000;
  const threeErrors = (rate: number) => 3 * Math.sqrt((rate * (1 - rate)) / comparisons);

  it('keeps A/A false regressions and improvements near or below 0.05 at any common pass rate', () => {
    for (const [i, rate] of [0.2, 0.5, 0.8].entries()) {
      const s = simulateSequential(design, rate, rate, comparisons, 7 + i);
      expect(s.regressions + s.improvements + s.unchanged + s.undecided).toBe(comparisons);
      expect((s.regressions + s.improvements) / comparisons).toBeLessThanOrEqual(0.05 + threeErrors(0.05));
    }
  });

  it('at a true 40-point difference, decides with the power the design reports and spends ≤ 0.6× the runs of the fixed-n design', () => {
    const s = simulateSequential(design, 0.7, 0.3, comparisons, 11);
    expect(Math.abs(s.regressions / comparisons - design.reachedPower!)).toBeLessThanOrEqual(threeErrors(0.8));
    const fixed = fixedSampleSize(0.7, 0.3)!;
    expect(fixed.pairs).toBe(29);
    expect(s.meanPairs / fixed.pairs).toBeLessThanOrEqual(0.6);
  });

  it('gives the same summary for the same seed', () => {
    expect(simulateSequential(design, 0.6, 0.4, 200, 3)).toEqual(simulateSequential(design, 0.6, 0.4, 200, 3));
  });
});
