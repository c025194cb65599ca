/**
 * How transcript attempts are numbered: `generation × 1000 + resumes × 100 + activity attempt`.
 * A retried activity writes under its Temporal attempt (1, 2, …). A resumed run (`evalflow
 * resume`) is a new workflow execution whose activity attempts start at 1 again, so each
 * resume numbers its attempts past the earlier executions'. A run that starts again from
 * prepare on another host (its first host was lost) is a new generation: its events never
 * collide with those of the lost one, and readers can tell the two apart.
 * Import-free, because the workflows use it too.
 */
export const ATTEMPTS_PER_GENERATION = 1000;
export const ATTEMPTS_PER_RESUME = 100;

export function transcriptAttempt(generation: number, activityAttempt: number, resumes = 0): number {
  return generation * ATTEMPTS_PER_GENERATION + resumes * ATTEMPTS_PER_RESUME + activityAttempt;
}

export function generationOf(attempt: number): number {
  return Math.floor(attempt / ATTEMPTS_PER_GENERATION);
}
