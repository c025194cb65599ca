/**
 * Failures kept in the edit-prediction batch workflow (its input and result stay small); the
 * store tells the rest. Import-free, so the workflow can import it as a value without zod.
 */
export const MAX_FAILURES_KEPT = 200;
