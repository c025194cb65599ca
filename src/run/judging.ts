import type { JudgingPolicy, RunSpec } from './runSpec.js';

/**
 * Defaults of how runs are judged. Import-free but for types, because the workflows use it
 * and their bundle must stay small and free of Node code.
 */
export const DEFAULT_JUDGING: JudgingPolicy = { samples: 1, review: 'later', allowSelfJudge: false };

/** The run's judging, the defaults where the spec (of an earlier version) sets none. */
export function judgingOf(spec: Pick<RunSpec, 'judging'>): JudgingPolicy {
  return spec.judging ?? DEFAULT_JUDGING;
}
