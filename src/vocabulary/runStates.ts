/**
 * The names of a run's states, as plain values so the CLI can list them as flag choices
 * without loading zod; runStatus.ts builds the schemas from them.
 * The vocabulary/ folder is the floor every other folder may stand on: it imports nothing
 * from src but itself, and never Temporal.
 */
export const RUN_STATUSES = ['completed', 'needs_review', 'aborted', 'infra_error', 'judge_failed', 'cancelled'] as const;
export const RUN_STATES = ['pending', 'running', ...RUN_STATUSES] as const;

/**
 * The statuses a pass rate leaves out, each counted apart in a batch's counts: every final
 * status but `completed` (a `needs_review` run counts once a person decides).
 */
export const UNCOUNTED_STATUSES = RUN_STATUSES.filter((status) => status !== 'completed') as readonly Exclude<
  (typeof RUN_STATUSES)[number],
  'completed'
>[];
