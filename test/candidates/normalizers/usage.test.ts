import { describe, expect, it } from 'vitest';
import { differenceUsage, makeUsage } from '../../../src/candidates/normalizers/usage.js';
import { addUsage } from '../../../src/vocabulary/usage.js';

describe('usage arithmetic', () => {
  it('adds and differences every counter, costs rounded', () => {
    const a = makeUsage({ input: 10, output: 2, cacheRead: 3, costUsd: 0.1 });
    const b = makeUsage({ input: 5, output: 1, reasoning: 4, costUsd: 0.2 });
    expect(addUsage(a, b)).toEqual({ input_tokens: 15, output_tokens: 3, cache_read_tokens: 3, reasoning_tokens: 4, cost_usd: 0.3 });
    expect(differenceUsage(addUsage(a, b)!, a)).toEqual({ input_tokens: 5, output_tokens: 1, reasoning_tokens: 4, cost_usd: 0.2 });
    expect(addUsage(undefined, b)).toBe(b);
  });

  it('treats counters that went down as a restarted session', () => {
    expect(differenceUsage(makeUsage({ input: 3, output: 1 }), makeUsage({ input: 10, output: 2 }))).toEqual({ input_tokens: 3, output_tokens: 1 });
  });
});
