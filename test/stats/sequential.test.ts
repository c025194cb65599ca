import { describe, expect, it } from 'vitest';
import { sequentialDesign, sequentialVerdict, tallyPairs } from '../../src/stats/sequential.js';
import { sequentialOutcomes as exactOutcomes } from '../../src/stats/sequentialOutcomes.js';

describe('sequentialDesign', () => {
  it('keeps the false regression-or-improvement rate at or below alpha for any common pass rate, exactly', () => {
    const design = sequentialDesign({ maxPairs: 24 });
    expect(design.logUpper).toBeLessThanOrEqual(Math.log(20));
    for (const rate of [0.05, 0.3, 0.5, 0.8, 1]) {
      const { regression, improvement } = exactOutcomes(design, rate, rate);
      expect(regression + improvement).toBeLessThanOrEqual(0.05);
      expect(regression).toBeCloseTo(improvement, 12);
    }
    // At ½ the limit's 24 pairs are discordant half the time; the bound is met closely, not loosely.
    expect(exactOutcomes(design, 0.5, 0.5).regression * 2).toBeGreaterThan(0.02);
  });

  it('reaches the power it reports at the difference it was designed for, and stops far sooner than the limit', () => {
    const design = sequentialDesign({ maxPairs: 40 });
    expect(design.reachedPower).not.toBeNull();
    expect(design.reachedPower!).toBeGreaterThanOrEqual(0.8);
    expect(Number.isFinite(design.logLower)).toBe(true);
    const worse = exactOutcomes(design, 0.7, 0.3);
    expect(worse.regression).toBeCloseTo(design.reachedPower!, 9);
    expect(worse.improvement).toBeLessThan(1e-4);
    expect(worse.meanPairs).toBeLessThan(0.6 * 40);
    const better = exactOutcomes(design, 0.3, 0.7);
    expect(better.improvement).toBeCloseTo(design.reachedPower!, 9);
  });

  it('says when the limit is too low to reach the power, and keeps no futility bound then', () => {
    const design = sequentialDesign({ maxPairs: 10 });
    expect(design.reachedPower!).toBeLessThan(0.8);
    expect(design.logLower).toBe(-Infinity);
  });

  it('falls back to Ville’s threshold and Wald’s futility bound beyond the exact calibration', () => {
    const design = sequentialDesign({ maxPairs: 1000, alpha: 0.1, power: 0.9 });
    expect(Math.exp(design.logUpper)).toBeCloseTo(10, 9);
    expect(Math.exp(design.logLower)).toBeCloseTo(0.1 / 0.9, 9);
    expect(design.reachedPower).toBeNull();
  });

  it('refuses impossible options', () => {
    expect(() => sequentialDesign({ maxPairs: 0 })).toThrow(/maxPairs 0/);
    expect(() => sequentialDesign({ maxPairs: 2.5 })).toThrow(RangeError);
    expect(() => sequentialDesign({ maxPairs: 10, alpha: 1 })).toThrow(/alpha 1/);
    expect(() => sequentialDesign({ maxPairs: 10, detect: 0 })).toThrow(/detect 0/);
  });
});

describe('sequentialVerdict', () => {
  const design = sequentialDesign({ maxPairs: 40 });

  it('decides a clear regression or improvement, with the interval of B − A and why', () => {
    const regression = sequentialVerdict(design, tallyPairs(Array.from({ length: 8 }, () => [true, false] as const)));
    expect(regression).toMatchObject({ state: 'decided', label: 'regression', stoppedBy: 'evidence', pairs: 8 });
    expect(regression.evidence).toBeGreaterThanOrEqual(Math.exp(design.logUpper));
    expect(regression.interval!.difference).toBe(-1);
    expect(regression.interval!.high).toBeLessThan(0);
    expect(regression.why).toMatch(/reached .* after 8 pairs \(8 passed on A alone, 0 on B alone\)/);
    const improvement = sequentialVerdict(design, { pairs: 8, bothPassed: 0, onlyA: 0, onlyB: 8 });
    expect(improvement).toMatchObject({ state: 'decided', label: 'improvement', stoppedBy: 'evidence' });
  });

  it('stays open while the evidence is short of the threshold, and says so', () => {
    const open = sequentialVerdict(design, { pairs: 3, bothPassed: 1, onlyA: 2, onlyB: 0 });
    expect(open).toMatchObject({ state: 'open', label: 'insufficient_data', stoppedBy: null, pairs: 3 });
    expect(open.evidence).toBeGreaterThan(1);
    expect(open.why).toMatch(/^e = \d+\.\d\d of \d+\.\d after 3 pairs$/);
    expect(sequentialVerdict(design, { pairs: 0, bothPassed: 0, onlyA: 0, onlyB: 0 })).toMatchObject({ evidence: 1, interval: null, stoppedBy: null });
  });

  it('decides "no change" once discordant pairs split evenly enough, and stops undecided at the limit', () => {
    const even = sequentialVerdict(design, { pairs: 20, bothPassed: 4, onlyA: 8, onlyB: 8 });
    expect(even).toMatchObject({ state: 'decided', label: 'no_change', stoppedBy: 'futility' });
    // Identical outcomes on both sides carry no evidence either way: the case runs to the limit.
    const flat = sequentialVerdict(design, { pairs: 40, bothPassed: 15, onlyA: 0, onlyB: 0 });
    expect(flat).toMatchObject({ state: 'open', label: 'insufficient_data', stoppedBy: 'limit', evidence: 1 });
    expect(flat.why).toMatch(/limit of 40 pairs/);
  });

  it('refuses an impossible tally', () => {
    expect(() => sequentialVerdict(design, { pairs: 2, bothPassed: 1, onlyA: 1, onlyB: 1 })).toThrow(/impossible tally/);
  });
});
