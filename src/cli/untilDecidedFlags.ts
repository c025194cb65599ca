import { UsageError } from '../errors.js';
import type { UntilDecided } from '../run/untilDecided.js';
import type { Prices } from '../vocabulary/prices.js';

/** The flags of `evalflow run` that ask for an adaptive A/B batch (their values already parsed as positive numbers). */
export interface UntilDecidedFlags {
  untilDecided?: boolean;
  maxRunsPerCase?: number;
  maxRuns?: number;
  budgetUsd?: number;
  /** Refused beside --until-decided: the rounds decide how many runs a case gets. */
  runsPerCase?: number;
}

/** Runs a side per case when --max-runs-per-case is not given: where the default design reaches 80% power at 40 points. */
export const DEFAULT_MAX_RUNS_PER_CASE = 60;

/**
 * The limits of a batch run until decided, or null when it is not one. Refuses, before anything
 * runs, what cannot work: limits without --until-decided, --until-decided without exactly two
 * arms, both a run limit and a budget, a budget without prices to turn usage into dollars, a
 * fixed --runs-per-case beside it.
 */
export function untilDecidedLimits(flags: UntilDecidedFlags, armCount: number, prices: Prices): UntilDecided | null {
  const given = (['maxRunsPerCase', 'maxRuns', 'budgetUsd'] as const).filter((key) => flags[key] !== undefined);
  if (!flags.untilDecided) {
    if (given.length > 0) throw new UsageError(`${flagName(given[0]!)} ${flags[given[0]!]}: expected with --until-decided, found without it`);
    return null;
  }
  if (flags.runsPerCase !== undefined) {
    throw new UsageError(`--runs-per-case ${flags.runsPerCase}: expected without --until-decided (the rounds decide how many runs each case gets; --max-runs-per-case caps them), found both`);
  }
  if (armCount !== 2) throw new UsageError(`--until-decided: expected exactly two --arm flags (A and B), found ${armCount}`);
  if (flags.maxRuns !== undefined && flags.budgetUsd !== undefined) throw new UsageError(`--budget-usd ${flags.budgetUsd}: expected either --max-runs or --budget-usd, found both (--max-runs ${flags.maxRuns})`);
  if (flags.budgetUsd !== undefined && Object.keys(prices).length === 0) {
    throw new UsageError(`--budget-usd ${flags.budgetUsd}: expected prices in evalflow.config.yaml (prices:) to turn recorded usage into dollars, found none; use --max-runs instead`);
  }
  return {
    maxRunsPerCase: flags.maxRunsPerCase ?? DEFAULT_MAX_RUNS_PER_CASE,
    ...(flags.maxRuns !== undefined ? { maxRuns: flags.maxRuns } : {}),
    ...(flags.budgetUsd !== undefined ? { budgetUsd: flags.budgetUsd } : {}),
  };
}

function flagName(key: 'maxRunsPerCase' | 'maxRuns' | 'budgetUsd'): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}
