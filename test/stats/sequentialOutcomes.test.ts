import { describe, expect, it } from 'vitest';
import { sequentialDesign } from '../../src/stats/sequential.js';
import { sequentialOutcomes } from '../../src/stats/sequentialOutcomes.js';

describe('sequentialOutcomes', () => {
  const design = sequentialDesign({ maxPairs: 16 });

  it('accounts for every way a comparison ends', () => {
    for (const [a, b] of [[0.5, 0.5], [0.9, 0.2], [0.1, 0.6]] as const) {
      const o = sequentialOutcomes(design, a, b);
      expect(o.regression + o.improvement + o.unchanged + o.undecided).toBeCloseTo(1, 12);
      expect(o.meanPairs).toBeGreaterThan(0);
      expect(o.meanPairs).toBeLessThanOrEqual(16);
    }
  });

  it('runs arms that always agree to the limit, undecided, and decides arms that always disagree at the first pair the threshold allows', () => {
    expect(sequentialOutcomes(design, 1, 1)).toEqual({ regression: 0, improvement: 0, unchanged: 0, undecided: 1, meanPairs: 16 });
    const opposite = sequentialOutcomes(design, 1, 0);
    expect(opposite.regression).toBe(1);
    // Each pair only A passes multiplies "B is worse" by logToward: the first whole number of pairs past the threshold.
    expect(opposite.meanPairs).toBe(Math.ceil((design.logUpper + Math.log(2)) / design.logToward - 1e-12));
  });
});
