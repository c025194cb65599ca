import { describe, expect, it } from 'vitest';
import {
  bootstrapMean,
  compareCase,
  fisherExact,
  mcnemarExact,
  meanOverCases,
  pairedBootstrapDifference,
  passAtK,
  passHatK,
  smallestDetectableDifference,
  wilsonInterval,
  type CaseSide,
} from '../../src/stats/index.js';

const side = (passes: number, completed: number, overrides: Partial<CaseSide> = {}): CaseSide => ({ caseId: 'c', version: 'v1', hash: 'h', completed, passes, uncounted: {}, meanOverall: null, ...overrides });

describe('wilsonInterval', () => {
  it('matches hand-computed bounds, stays in [0, 1] at 0 and n passes, and is null for nothing measured', () => {
    // 0/10: [0, z²/(n+z²)]; 10/10: [n/(n+z²), 1]; 5/10: 0.5 ± 0.2634.
    expect(wilsonInterval(0, 10)).toMatchObject({ rate: 0, low: 0 });
    expect(wilsonInterval(0, 10)!.high).toBeCloseTo(3.841459 / 13.841459, 6);
    expect(wilsonInterval(10, 10)!.low).toBeCloseTo(10 / 13.841459, 6);
    expect(wilsonInterval(10, 10)!.high).toBe(1);
    expect(wilsonInterval(5, 10)!.low).toBeCloseTo(0.23659, 4);
    expect(wilsonInterval(5, 10)!.high).toBeCloseTo(0.76341, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
  });
});

describe('pass^k and pass@k', () => {
  it("use the unbiased estimators (τ²-bench's C(c,k)/C(n,k) and 1 − C(n−c,k)/C(n,k))", () => {
    expect(passHatK(5, 3, 1)).toBeCloseTo(0.6, 12);
    expect(passHatK(5, 3, 2)).toBeCloseTo(3 / 10, 12);
    expect(passHatK(5, 3, 3)).toBeCloseTo(1 / 10, 12);
    expect(passHatK(5, 3, 4)).toBe(0);
    expect(passAtK(5, 3, 2)).toBeCloseTo(1 - 1 / 10, 12);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passHatK(2, 2, 3)).toBeNull();
    // Averaged over the cases that have k runs: (0.3 + 1) / 2.
    expect(meanOverCases([{ n: 5, c: 3 }, { n: 4, c: 4 }, { n: 1, c: 1 }], 2, passHatK)).toBeCloseTo(0.65, 12);
  });
});

describe("Fisher's exact test", () => {
  it('gives the hand-computed two-sided p-values', () => {
    // 3/5 vs 0/5: P(3) + P(0) = 10/120 + 10/120.
    expect(fisherExact(3, 5, 0, 5)).toBeCloseTo(20 / 120, 10);
    // 5/5 vs 0/5: 2 / C(10, 5).
    expect(fisherExact(5, 5, 0, 5)).toBeCloseTo(2 / 252, 10);
    expect(fisherExact(4, 5, 0, 5)).toBeCloseTo(10 / 210, 10);
    expect(fisherExact(2, 4, 2, 4)).toBeCloseTo(1, 10);
  });

  it('says what run counts can detect: nothing below 4 runs a side, 0.8 with 5, less with more', () => {
    expect(smallestDetectableDifference(3, 3)).toBeNull();
    expect(smallestDetectableDifference(4, 4)).toBe(1);
    expect(smallestDetectableDifference(5, 5)).toBeCloseTo(0.8, 10);
    expect(smallestDetectableDifference(20, 20)!).toBeLessThan(0.5);
  });

  it('finds the same smallest difference as testing every pair of outcomes, for even and uneven counts and other alphas', () => {
    const everyPair = (nA: number, nB: number, alpha: number): number | null => {
      let smallest: number | null = null;
      for (let a = 0; a <= nA; a++) {
        for (let b = 0; b <= nB; b++) {
          if (fisherExact(a, nA, b, nB) >= alpha) continue;
          const difference = Math.abs(a / nA - b / nB);
          if (smallest === null || difference < smallest) smallest = difference;
        }
      }
      return smallest;
    };
    const counts = [0, 1, 2, 3, 4, 5, 7, 9, 12, 17, 25, 40, 63];
    for (const nA of counts) {
      for (const nB of counts) {
        for (const alpha of [0.05, 0.01, 0.2]) expect([nA, nB, alpha, smallestDetectableDifference(nA, nB, alpha)]).toEqual([nA, nB, alpha, everyPair(nA, nB, alpha)]);
      }
    }
  });

  it('answers for 300 runs of a case a side in well under a second (testing every pair took seconds)', () => {
    const start = performance.now();
    expect(smallestDetectableDifference(300, 299)!).toBeLessThan(0.15);
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('mcnemarExact', () => {
  it('tests the discordant pairs only', () => {
    expect(mcnemarExact(0, 6)).toBeCloseTo(2 / 64, 12);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
  });
});

describe('bootstrap intervals', () => {
  it('are reproducible with their seed and move with another', () => {
    const values = [1.3, 2.1, 2.9, 3.3, 3.4, 4.05, 4.1, 4.35, 4.8, 4.7];
    const first = bootstrapMean(values, { seed: 7 });
    expect(bootstrapMean(values, { seed: 7 })).toEqual(first);
    expect(bootstrapMean(values, { seed: 8 })).not.toEqual(first);
    expect(first!.mean).toBeCloseTo(3.5, 12);
    expect(first!.low).toBeLessThan(3.5);
    expect(first!.high).toBeGreaterThan(3.5);
    expect(first!.high - first!.low).toBeLessThan(2);
    expect(bootstrapMean([])).toBeNull();
    const diff = pairedBootstrapDifference([{ a: 1, b: 0 }, { a: 1, b: 0.2 }, { a: 0.8, b: 0 }], { seed: 1 });
    expect(diff!.mean).toBeCloseTo(-0.8667, 3);
    expect(diff!.high).toBeLessThan(0);
  });
});

describe('compareCase', () => {
  it('labels regressions, improvements, no change, too few runs and changed cases', () => {
    expect(compareCase('c', side(5, 5), side(0, 5))).toMatchObject({ label: 'regression', difference: -1 });
    expect(compareCase('c', side(0, 5), side(5, 5))).toMatchObject({ label: 'improvement', difference: 1 });
    expect(compareCase('c', side(3, 5), side(0, 5))).toMatchObject({ label: 'no_change', detectable: expect.closeTo(0.8, 10) });
    expect(compareCase('c', side(3, 3), side(0, 3))).toMatchObject({ label: 'insufficient_data', detectable: null });
    expect(compareCase('c', side(3, 3), side(0, 0))).toMatchObject({ label: 'not_comparable', reason: 'side B has no completed run' });
    expect(compareCase('c', side(5, 5), side(0, 5, { hash: 'other' })).label).toBe('not_comparable');
    expect(compareCase('c', null, side(1, 5)).label).toBe('not_comparable');
  });
});
