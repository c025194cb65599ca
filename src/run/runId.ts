/**
 * Identity of runs and batches (docs/architecture.md, "Identity"). The run id is also the
 * Temporal workflow id, so it must be derived, never random.
 */
export function runStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/** `run-<caseId>-<candidate>@<stamp>[-<k>]`; k is given only with several runs per case. */
export function makeRunId(caseId: string, candidate: string, stamp: string, k?: number): string {
  return `run-${caseId}-${candidate}@${stamp}${k !== undefined ? `-${k}` : ''}`;
}

/** `batch-<stamp>-<short>`; `short` disambiguates batches started in the same second. */
export function makeBatchId(stamp: string, short: string): string {
  return `batch-${stamp}-${short}`;
}

const RUN_ID = /^run-(.+)-([^-@]+(?:-[^-@]+)*)@(\d{8}T\d{6})(?:-(\d+))?$/;

/** Splits a run id; the candidate name may not contain '@'. */
export function parseRunId(runId: string): { stamp: string; k?: number } | null {
  const match = RUN_ID.exec(runId);
  if (!match) return null;
  return { stamp: match[3]!, ...(match[4] ? { k: Number(match[4]) } : {}) };
}
