/**
 * The names of a run's states, as plain values so the CLI can list them as flag choices
 * without loading zod; runStatus.ts builds the schemas from them.
 */
export const RUN_STATUSES = ['completed', 'needs_review', 'aborted', 'infra_error', 'judge_failed', 'cancelled'] as const;
export const RUN_STATES = ['pending', 'running', ...RUN_STATUSES] as const;
