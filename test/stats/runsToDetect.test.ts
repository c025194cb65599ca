import { describe, expect, it } from 'vitest';
import { normalQuantile } from '../../src/stats/normalQuantile.js';
import { runsToDetect } from '../../src/stats/runsToDetect.js';

describe('normalQuantile', () => {
  it('gives the z values of the tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 6);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 6);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232, 6);
  });

  it('refuses a probability of 0 or 1', () => {
    expect(() => normalQuantile(1)).toThrow('expected a probability strictly between 0 and 1, found 1');
    expect(() => normalQuantile(0)).toThrow(RangeError);
  });
});

describe('runsToDetect', () => {
  // By hand: p1 0.8, p2 0.5, p̄ 0.65: (1.959964·√0.455 + 0.841621·√0.41)² / 0.09
  //   = (1.322068 + 0.538902)² / 0.09 = 3.463210 / 0.09 = 38.48 → 39.
  it('needs 39 runs a side to see a 30-point drop from 80% (power 0.8, alpha 0.05)', () => {
    expect(runsToDetect(0.8, { detect: 0.3 })).toBe(39);
    expect(runsToDetect(0.5, { detect: 0.3 })).toBe(39);
  });

  // By hand: p1 0.9, p2 0.5, p̄ 0.7: (1.959964·√0.42 + 0.841621·√0.34)² / 0.16 = (1.270202 + 0.490746)² / 0.16 = 19.38 → 20.
  it('needs fewer runs for a larger difference', () => {
    expect(runsToDetect(0.9, { detect: 0.4 })).toBe(20);
  });

  // By hand: 0.1 cannot drop 30 points, so p2 = 0.4, p̄ 0.25: (1.959964·√0.375 + 0.841621·√0.33)² / 0.09 = (1.200228 + 0.483476)² / 0.09 = 31.50 → 32.
  it('looks up instead of down for a case too close to 0 to drop that far', () => {
    expect(runsToDetect(0.1, { detect: 0.3 })).toBe(32);
  });

  // By hand: power 0.9 (z 1.281552): (1.322068 + 1.281552·√0.41)² / 0.09 = (1.322068 + 0.820604)² / 0.09 = 51.01 → 52.
  it('needs more runs for more power', () => {
    expect(runsToDetect(0.5, { detect: 0.3, power: 0.9 })).toBe(52);
  });

  it('is null when a change that large cannot happen from this rate, and refuses impossible input', () => {
    expect(runsToDetect(0.5, { detect: 0.6 })).toBeNull();
    expect(() => runsToDetect(0.5, { detect: 1 })).toThrow('expected a difference strictly between 0 and 1, found 1');
    expect(() => runsToDetect(1.2, { detect: 0.3 })).toThrow('expected a pass rate 0..1, found 1.2');
  });
});
