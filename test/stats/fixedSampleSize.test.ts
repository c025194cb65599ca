import { describe, expect, it } from 'vitest';
import { fisherPower, fixedSampleSize } from '../../src/stats/fixedSampleSize.js';

describe('fisherPower and fixedSampleSize', () => {
  it('gives certain outcomes their hand-computed power', () => {
    // 4/4 against 0/4: p = 2/70 < 0.05; 3/3 against 0/3: p = 0.1.
    expect(fisherPower(4, 1, 0)).toBeCloseTo(1, 12);
    expect(fisherPower(3, 1, 0)).toBe(0);
    expect(fixedSampleSize(1, 0)).toEqual({ pairs: 4, power: expect.closeTo(1, 12) as number });
  });

  it('needs more runs than the normal approximation at 0.7 against 0.3 (Fisher is conservative), and finds none for equal rates', () => {
    // The normal approximation's n for 80% power: (1.96·√(2·0.25) + 0.8416·√(0.21 + 0.21))² / 0.4² ≈ 23.3.
    const fixed = fixedSampleSize(0.7, 0.3)!;
    expect(fixed.pairs).toBeGreaterThan(24);
    expect(fixed.power).toBeGreaterThanOrEqual(0.8);
    expect(fisherPower(fixed.pairs - 1, 0.7, 0.3)).toBeLessThan(0.8);
    expect(fixedSampleSize(0.5, 0.5, { limit: 30 })).toBeNull();
  });
});
