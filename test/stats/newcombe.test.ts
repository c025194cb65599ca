import { describe, expect, it } from 'vitest';
import { newcombeDifference } from '../../src/stats/newcombe.js';

describe('newcombeDifference', () => {
  it("gives Newcombe's published method-10 intervals (Statistics in Medicine 1998, table II)", () => {
    const cases = [
      [48, 80, 56, 70, 0.0524, 0.3339],
      [3, 10, 9, 10, 0.1705, 0.809],
      [0, 29, 5, 56, -0.0381, 0.1926],
    ] as const;
    for (const [a, nA, b, nB, low, high] of cases) {
      const interval = newcombeDifference(a, nA, b, nB)!;
      expect(interval.difference).toBeCloseTo(b / nB - a / nA, 12);
      expect(interval.low).toBeCloseTo(low, 4);
      expect(interval.high).toBeCloseTo(high, 4);
    }
    expect(newcombeDifference(0, 0, 1, 1)).toBeNull();
  });
});
