import { describe, expect, it } from 'vitest';
import { snakeCase, snakeCaseKeys } from '../../src/cli/snakeCaseJson.js';

describe('--json keys in snake_case', () => {
  it('renames camelCase keys, at every depth and in arrays, and leaves values and snake_case keys alone', () => {
    expect(snakeCase('meanOverallA')).toBe('mean_overall_a');
    expect(snakeCase('differenceInterval')).toBe('difference_interval');
    expect(snakeCase('onlyB')).toBe('only_b');
    expect(snakeCase('infra_error')).toBe('infra_error');
    expect(snakeCase('p')).toBe('p');
    expect(snakeCase('fix-slug-dashes')).toBe('fix-slug-dashes');
    expect(
      snakeCaseKeys({ caseId: 'fixSlug', cases: [{ rateA: { low: 0.1, high: 0.9 }, reviewsA: ['runs/aB/review.md'] }], uncounted: { infra_error: 1 }, difference: null }),
    ).toEqual({ case_id: 'fixSlug', cases: [{ rate_a: { low: 0.1, high: 0.9 }, reviews_a: ['runs/aB/review.md'] }], uncounted: { infra_error: 1 }, difference: null });
  });
});
