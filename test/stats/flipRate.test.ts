import { describe, expect, it } from 'vitest';
import { flipRate } from '../../src/stats/flipRate.js';

describe('flipRate', () => {
  it('is the share of pairs of runs that disagree', () => {
    // 3 passes of 6: 3 × 3 = 9 of the 15 pairs disagree, capped at ½.
    expect(flipRate(3, 6).rate).toBe(0.5);
    // 1 pass of 6: 5 of 15 pairs.
    expect(flipRate(1, 6).rate).toBeCloseTo(5 / 15, 12);
    // 8 of 10: 16 of 45.
    expect(flipRate(8, 10).rate).toBeCloseTo(16 / 45, 12);
  });

  it('is 0 for a case whose runs all agree, with an interval that still allows some flipping', () => {
    const all = flipRate(10, 10);
    expect(all.rate).toBe(0);
    expect(all.low).toBe(0);
    // Wilson's lower bound for 10/10 is 0.722: 2 × 0.722 × 0.278 ≈ 0.401.
    expect(all.high).toBeCloseTo(0.401, 3);
    const none = flipRate(0, 10);
    expect([none.rate, none.low]).toEqual([0, 0]);
    expect(none.high).toBeCloseTo(all.high!, 12);
  });

  it('reaches ½ at the top of its interval when the pass rate could be ½', () => {
    const r = flipRate(4, 10);
    expect(r.high).toBe(0.5);
    expect(r.low!).toBeGreaterThan(0);
    expect(r.low!).toBeLessThanOrEqual(r.rate!);
  });

  it('says nothing below two runs, and refuses impossible counts', () => {
    expect(flipRate(1, 1)).toEqual({ runs: 1, passes: 1, rate: null, low: null, high: null });
    expect(() => flipRate(3, 2)).toThrow(RangeError);
  });

  it('estimates 2π(1 − π) without bias: averaged over every outcome of n runs it gives the true rate', () => {
    const n = 5;
    const pi = 0.8;
    let mean = 0;
    for (let s = 0; s <= n; s++) mean += binomial(n, s) * pi ** s * (1 - pi) ** (n - s) * ((s * (n - s)) / ((n * (n - 1)) / 2));
    expect(mean).toBeCloseTo(2 * pi * (1 - pi), 12);
  });
});

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}
