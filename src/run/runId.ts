/**
 * Identity of runs and batches (docs/architecture.md, "Identity"). The run id is also the
 * Temporal workflow id, so it must be derived, never random.
 */
export function runStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/**
 * `run-<caseId>-<candidate>@<stamp>[+<arm>][-<k>]`; k is given only with several runs per
 * case, the arm only in an A/B batch (two arms may run the same candidate).
 */
export function makeRunId(caseId: string, candidate: string, stamp: string, k?: number, arm?: string): string {
  return `run-${caseId}-${candidate}@${stamp}${arm !== undefined ? `+${arm}` : ''}${k !== undefined ? `-${k}` : ''}`;
}

/** What an arm may be called: it becomes part of run ids and folder names. */
export const ARM_NAME = /^[A-Za-z0-9][A-Za-z0-9_.]*$/;

/** `batch-<stamp>-<short>`; `short` disambiguates batches started in the same second. */
export function makeBatchId(stamp: string, short: string): string {
  return `batch-${stamp}-${short}`;
}

const RUN_ID = /^run-(.+)-([^-@]+(?:-[^-@]+)*)@(\d{8}T\d{6})(?:\+([A-Za-z0-9][A-Za-z0-9_.]*))?(?:-(\d+))?$/;

/** Splits a run id; the candidate name may not contain '@'. */
export function parseRunId(runId: string): { stamp: string; k?: number; arm?: string } | null {
  const match = RUN_ID.exec(runId);
  if (!match) return null;
  return { stamp: match[3]!, ...(match[4] ? { arm: match[4] } : {}), ...(match[5] ? { k: Number(match[5]) } : {}) };
}
