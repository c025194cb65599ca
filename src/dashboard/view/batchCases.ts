import type { Store } from '../../store/index.js';

/** A run as the viewer's case views list it. */
export interface CaseRun {
  run_id: string;
  case_id: string;
  arm: string | null;
  attempt_index: number | null;
  status: string;
  result: string | null;
  overall: number | null;
}

/** A batch's runs grouped by case, arms side by side: `arms` are the columns, each row's `runs[i]` the runs of arm i. */
export interface BatchCases {
  batchId: string;
  arms: (string | null)[];
  cases: { case_id: string; runs: CaseRun[][] }[];
}

/** The order a batch's runs are read in, and previous/next walk: by case, then arm, then attempt. */
export function byCaseArmAttempt(a: CaseRun, b: CaseRun): number {
  return cmp(a.case_id, b.case_id) || cmp(a.arm ?? '', b.arm ?? '') || (a.attempt_index ?? 0) - (b.attempt_index ?? 0) || cmp(a.run_id, b.run_id);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every run of a batch, in reading order (a batch's rows fit in memory; only their small columns are read). */
export async function batchCaseRuns(store: Store, batchId: string): Promise<CaseRun[]> {
  return (await store.batchCaseRuns(batchId)).sort(byCaseArmAttempt);
}

/** The batch page's grouping; arms in the order the batch row lists them, then any others its runs name. */
export async function batchCases(store: Store, batchId: string): Promise<BatchCases | null> {
  const batch = await store.getBatch(batchId);
  if (!batch) return null;
  const runs = await batchCaseRuns(store, batchId);
  const listed = Array.isArray(batch.spec.arms) ? (batch.spec.arms as { name?: unknown }[]).map((a) => a.name).filter((n): n is string => typeof n === 'string') : [];
  const arms: (string | null)[] = [...new Set([...listed.filter((n) => runs.some((r) => r.arm === n)), ...runs.map((r) => r.arm)])];
  const cases = [...new Set(runs.map((r) => r.case_id))].map((caseId) => ({ case_id: caseId, runs: arms.map((arm) => runs.filter((r) => r.case_id === caseId && r.arm === arm)) }));
  return { batchId, arms, cases };
}
