import { describe, expect, it } from 'vitest';
import { decisionChances } from '../../src/stats/decisionChances.js';
import { sequentialDesign } from '../../src/stats/sequential.js';
import { sequentialOutcomes } from '../../src/stats/sequentialOutcomes.js';

describe('decisionChances', () => {
  const design = sequentialDesign({ maxPairs: 20 });

  it('agrees with the walk over every tally, which it shares nothing with but the verdict', () => {
    for (const [a, b] of [[0.5, 0.5], [0.8, 0.4], [0.2, 0.7], [0.95, 0.95], [1, 0.6]] as const) {
      const fast = decisionChances(design, a, b);
      const full = sequentialOutcomes(design, a, b);
      for (const key of ['regression', 'improvement', 'unchanged', 'undecided'] as const) expect(fast[key]).toBeCloseTo(full[key], 10);
    }
  });

  it('never decides arms that never disagree: a case that never flips runs to its limit when nothing changed', () => {
    expect(decisionChances(design, 1, 1)).toEqual({ regression: 0, improvement: 0, unchanged: 0, undecided: 1 });
  });

  it('decides less within a lower limit', () => {
    const full = decisionChances(design, 0.7, 0.3);
    const short = decisionChances(design, 0.7, 0.3, 6);
    expect(short.regression).toBeLessThan(full.regression);
    expect(short.undecided).toBeGreaterThan(full.undecided);
  });
});
