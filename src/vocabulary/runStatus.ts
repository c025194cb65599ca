import * as z from 'zod';
import { RUN_STATES, RUN_STATUSES } from './runStates.js';

/**
 * How a run ended. `completed` runs were judged (pass or fail) and are the only ones a pass
 * rate counts; `needs_review` runs were judged but their verdict is in doubt (salvaged, hard
 * items not assessed, judge samples disagreeing) and count only once a person decides, which
 * makes them `completed`; `aborted` (a setup command or hard precondition failed),
 * `infra_error` and `judge_failed` (ours, never the candidate's), and `cancelled` are counted apart.
 */
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** Where a run's row stands: not started yet, running, or one of the final statuses. */
export const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

/** States of a run that has not recorded how it ended. */
export function isUnfinished(state: RunState): boolean {
  return state === 'pending' || state === 'running';
}
