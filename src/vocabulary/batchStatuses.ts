/** The names of a batch row's statuses, as plain values (see runStates.ts for why). */
export const BATCH_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
