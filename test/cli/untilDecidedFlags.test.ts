import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RUNS_PER_CASE, untilDecidedLimits } from '../../src/cli/untilDecidedFlags.js';
import { UsageError } from '../../src/errors.js';

const prices = { 'gpt-4o': { input: 2.5, output: 10 } };

describe('untilDecidedLimits', () => {
  it('gives the limits of an adaptive A/B batch, with the default runs a side', () => {
    expect(untilDecidedLimits({}, 2, {})).toBeNull();
    expect(untilDecidedLimits({ untilDecided: true }, 2, {})).toEqual({ maxRunsPerCase: DEFAULT_MAX_RUNS_PER_CASE });
    expect(untilDecidedLimits({ untilDecided: true, maxRunsPerCase: 20, maxRuns: 400 }, 2, {})).toEqual({ maxRunsPerCase: 20, maxRuns: 400 });
    expect(untilDecidedLimits({ untilDecided: true, budgetUsd: 5 }, 2, prices)).toEqual({ maxRunsPerCase: DEFAULT_MAX_RUNS_PER_CASE, budgetUsd: 5 });
  });

  it('refuses in one line naming the flag, the value and what is expected', () => {
    const refusals: [Parameters<typeof untilDecidedLimits>, RegExp][] = [
      [[{ untilDecided: true }, 1, {}], /^--until-decided: expected exactly two --arm flags \(A and B\), found 1$/],
      [[{ untilDecided: true }, 3, {}], /found 3$/],
      [[{ maxRunsPerCase: 8 }, 2, {}], /^--max-runs-per-case 8: expected with --until-decided, found without it$/],
      [[{ budgetUsd: 3 }, 2, prices], /^--budget-usd 3: expected with --until-decided/],
      [[{ untilDecided: true, budgetUsd: 3 }, 2, {}], /^--budget-usd 3: expected prices in evalflow\.config\.yaml .* found none; use --max-runs instead$/],
      [[{ untilDecided: true, budgetUsd: 3, maxRuns: 10 }, 2, prices], /^--budget-usd 3: expected either --max-runs or --budget-usd, found both \(--max-runs 10\)$/],
    ];
    for (const [args, message] of refusals) {
      let thrown: unknown;
      try {
        untilDecidedLimits(...args);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('\n');
    }
  });
});
