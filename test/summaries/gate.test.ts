import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseGate } from '../../src/summaries/index.js';

describe('--gate thresholds are checked against what each metric can be', () => {
  it('refuses a pass rate written as a percent, a score above 5 and a negative count', () => {
    expect(() => parseGate('pass_rate>=80')).toThrow("--gate 'pass_rate>=80': pass_rate is a fraction 0..1 (0.8 for 80%), found 80");
    expect(() => parseGate('pass_rate>=80')).toThrow(UsageError);
    expect(() => parseGate('pass_rate_low>1.5')).toThrow(/pass_rate_low is a fraction 0\.\.1/);
    expect(() => parseGate('overall>=7')).toThrow("--gate 'overall>=7': overall is a score 0..5, found 7");
    expect(() => parseGate('completed>=-1')).toThrow(/completed is a count of runs, 0 or more/);
  });

  it('accepts the bounds themselves', () => {
    expect(parseGate('pass_rate>=1,overall<=5,compliance>0,completed>=0').map((c) => c.threshold)).toEqual([1, 5, 0, 0]);
  });
});
