import type { BatchProgress } from '../../run/progress.js';
import type { Store } from '../../store/index.js';
import { isUnfinished } from '../../vocabulary/runStatus.js';

/** Where a run stands in the live view: its state in the store and, while it runs, its workflow's stage. */
export interface LiveRun {
  run_id: string;
  status: string;
  result: string | null;
  /** The run workflow's stage (`examine`, `judge`, …) while it runs, when Temporal answers; else null. */
  stage: string | null;
}

/** What `/api/batches/ID/live` answers: small enough to poll every few seconds. */
export interface BatchLive {
  batchId: string;
  status: string;
  /** Whether the page should keep polling: the batch has not ended. */
  live: boolean;
  progress: { total: number; finished: number; running: number; pending: number; source: 'workflow' | 'store' };
  runs: LiveRun[];
}

export interface LiveSources {
  /** The batch workflow's progress query; null when Temporal or a worker does not answer. */
  progress?: (batchId: string) => Promise<BatchProgress | null>;
  /** Stages of the batch's running run workflows by run id; null when Temporal does not answer. */
  stages?: (batchId: string) => Promise<Record<string, string> | null>;
}

/**
 * A batch's progress and each run's state, from the store (which every worker writes as runs
 * start and end) and, when Temporal answers, the batch workflow's counts and the runs' stages.
 */
export async function batchLive(store: Store, batchId: string, sources: LiveSources): Promise<BatchLive | null> {
  const batch = await store.getBatch(batchId);
  if (!batch) return null;
  const live = batch.status === 'running' || batch.status === 'pending';
  const [states, progress, stages] = await Promise.all([
    store.batchRunStates(batchId),
    live ? (sources.progress?.(batchId).catch(() => null) ?? null) : null,
    live ? (sources.stages?.(batchId).catch(() => null) ?? null) : null,
  ]);
  const runs = states.map((s): LiveRun => ({ run_id: s.run_id, status: s.status, result: s.result, stage: s.status === 'running' ? (stages?.[s.run_id] ?? null) : null }));
  const running = runs.filter((r) => r.status === 'running').length;
  const finished = states.filter((s) => !isUnfinished(s.status)).length;
  // The plan's size when the batch recorded it: runs not started yet may have no row.
  const planned = typeof batch.spec.total === 'number' ? batch.spec.total : 0;
  const fromStore = { total: Math.max(planned, runs.length), finished, running, pending: Math.max(planned, runs.length) - finished - running, source: 'store' as const };
  return {
    batchId,
    status: batch.status,
    live,
    progress: progress
      ? { total: progress.total, finished: progress.finished, running: progress.running.length, pending: Math.max(0, progress.total - progress.finished - progress.running.length), source: 'workflow' }
      : fromStore,
    runs,
  };
}
