import { loadSettings } from '../config.js';
import type { BatchProgress } from '../run/progress.js';
import type { Batch, Run } from '../store/index.js';
import { DEFAULT_RECOVERY } from '../run/recovery.js';
import { RecoverySchema } from '../run/runSpec.js';
import { SHARED_TASK_QUEUE } from '../temporal/names.js';
import { isUnreachable } from '../temporal/unreachable.js';
import { UNCOUNTED_STATUSES } from '../vocabulary/runStates.js';
import { batchProgressQuery } from '../workflows/definitions.js';
import { plannedTotal } from '../cli/batch/counts.js';
import { describeBatch, newestBatchId, openBatchSources, unknownBatchMessage, type BatchSources } from '../cli/batch/lookup.js';
import { batchWorkers, hasWorkers } from '../cli/batch/workers.js';
import { hostStates, latestClaims, type RunningRun } from '../cli/batch/hosts.js';
import { runStages } from '../cli/batch/runStages.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { StatusJson } from '../cli/json/status.js';
import { formatStatus } from '../cli/output/statusTable.js';

export interface StatusOptions {
  batchId?: string;
  config?: string;
  /** Print the status as one JSON document (docs/json.md) instead of the table. */
  json?: boolean;
}

const QUERY_DEADLINE_MS = 5_000;

/**
 * `evalflow status [BATCH]` (default: the newest batch): live progress from the batch's
 * workflow while it runs, else the store's row; says when nothing serves it and how to go
 * on. Exit 0, 3 for an unknown batch, 69 when neither the store nor Temporal can be reached.
 */
export async function run(options: StatusOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const sources = await openBatchSources(settings, io);
  try {
    if (!sources.store && !sources.temporal) {
      io.err(`error: ${sources.temporalDown?.message ?? 'Temporal is unreachable'}, and ${sources.storeBusy ?? 'the store cannot be opened'}`);
      return EXIT.unreachable;
    }
    const batchId = options.batchId ?? (await newestBatchId(sources));
    if (!batchId) {
      io.err('no batch yet: `evalflow run` starts one');
      return EXIT.unknownBatch;
    }
    const status = await readStatus(batchId, sources, settings.recovery.hostLostAfterS, io);
    if (!status) return EXIT.unknownBatch;
    if (options.json) printJson(io, StatusJson, status);
    else for (const line of formatStatus(status)) io.out(line);
    return EXIT.ok;
  } finally {
    await sources.close();
  }
}

/** Where the batch stands, as the document both forms print; null (said on stderr) when no source knows it. */
async function readStatus(batchId: string, sources: BatchSources, hostLostAfterS: number, io: CommandIo): Promise<StatusJson | null> {
  const row = sources.store ? await sources.store.getBatch(batchId) : null;
  let description: Awaited<ReturnType<typeof describeBatch>> = null;
  let temporalDown = sources.temporalDown?.message ?? null;
  if (sources.temporal) {
    try {
      description = await describeBatch(sources.temporal, batchId);
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      temporalDown = `Temporal at ${sources.temporal.address} is unreachable`;
    }
  }
  if (!row && !description) {
    if (temporalDown && sources.store) io.err(`(${temporalDown}: only the store was searched)`);
    io.err(await unknownBatchMessage(batchId, sources.store));
    return null;
  }
  const storeRuns = sources.store ? await sources.store.listRuns({ batchId }) : [];
  const spec = row?.spec ?? {};
  const candidate = typeof spec.candidate === 'string' ? spec.candidate : null;
  const base = {
    schema_version: 1 as const,
    batch_id: batchId,
    planned: plannedTotal(row),
    store_updated_at: row?.updated_at ?? null,
    candidate: candidate
      ? {
          name: candidate,
          adapter: typeof spec.adapter === 'string' ? spec.adapter : null,
          model: typeof spec.model === 'string' ? spec.model : null,
          parallelism: typeof spec.parallelism === 'number' ? spec.parallelism : null,
          runs_per_case: typeof spec.runs_per_case === 'number' ? spec.runs_per_case : 1,
        }
      : null,
    started_at: row?.created_at ?? description?.startTime.toISOString() ?? null,
  };

  const live = description ? description.status.name === 'RUNNING' || description.status.name === 'CONTINUED_AS_NEW' : false;
  if (live && sources.temporal) {
    const workers = await batchWorkers(sources.temporal.client);
    const progress = hasWorkers(workers) ? await queryProgress(sources, batchId) : null;
    const running = progress?.running ?? storeRuns.filter((r) => r.status === 'running').map((r) => r.run_id);
    const hosts = sources.store ? await hostStates(sources.store, withLimits(running, storeRuns, hostLostAfterS)) : { live: [], lost: [] };
    const stages = (await runStages(sources.temporal, batchId, QUERY_DEADLINE_MS)) ?? {};
    return {
      ...base,
      status: 'running',
      live: true,
      ...liveCounts(row, progress),
      planned: progress?.total ?? base.planned,
      workers,
      waiting: hasWorkers(workers) ? null : noWorker(batchId, sources),
      hosts: hosts.live.map((h) => ({ host_id: h.hostId, slots: h.slots, busy: h.busy, free: h.slots === null ? null : Math.max(0, h.slots - h.busy), draining: h.draining, workers: h.workers })),
      lost_hosts: hosts.lost.map((h) => ({ host_id: h.hostId, run_ids: h.runIds, last_seen_s_ago: h.lastSeenSAgo, moves_in_s: h.movesInS, host_lost_after_s: h.hostLostAfterS })),
      runs: await statusRuns(sources, storeRuns, progress?.running ?? [], stages),
    };
  }
  const status = row?.status ?? description?.status.name.toLowerCase() ?? 'unknown';
  const stillOpen = status === 'running' || status === 'pending';
  return {
    ...base,
    status,
    live: false,
    counts: row?.counts ?? null,
    counts_of_last: null,
    workers: null,
    waiting: stillOpen ? notServed(batchId, temporalDown, sources) : null,
    hosts: [],
    lost_hosts: [],
    runs: await statusRuns(sources, storeRuns, [], {}),
  };
}

/** The progress query needs a worker to answer: asked only when one polls, and not for long. */
async function queryProgress(sources: BatchSources, batchId: string): Promise<BatchProgress | null> {
  const temporal = sources.temporal!;
  try {
    return await temporal.client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => temporal.client.workflow.getHandle(batchId).query(batchProgressQuery));
  } catch {
    return null;
  }
}

/** A live batch's counts: the store's row, unless the workflow's progress has moved on. */
function liveCounts(row: Batch | null, progress: BatchProgress | null): { counts: Batch['counts'] | null; counts_of_last: number | null } {
  if (!row && !progress) return { counts: null, counts_of_last: null };
  if (row && (!progress || row.counts.finished === progress.finished)) return { counts: row.counts, counts_of_last: null };
  // The store's counts trail the workflow's by up to a few seconds, or the store is busy.
  const outcomes = progress!.outcomes;
  return { counts: progressCounts(progress!), counts_of_last: outcomes.length < progress!.finished ? outcomes.length : null };
}

/** A running batch's counts from its workflow's progress, spelled as the batch row spells them. */
export function progressCounts(progress: BatchProgress): Batch['counts'] {
  const outcomes = progress.outcomes;
  return {
    finished: progress.finished,
    passed: outcomes.filter((o) => o.result === 'pass').length,
    failed: outcomes.filter((o) => o.result === 'fail').length,
    ...Object.fromEntries(UNCOUNTED_STATUSES.map((s) => [s, outcomes.filter((o) => o.status === s).length])),
  };
}

/**
 * The running runs, each with the `host_lost_after_s` its spec carries (the client that started
 * the batch set it); `fallback`, this client's, for a run not written yet.
 */
function withLimits(running: readonly string[], storeRuns: readonly Run[], fallback: number): RunningRun[] {
  const limits = new Map(storeRuns.map((r) => [r.run_id, RecoverySchema.safeParse(r.spec?.recovery).data?.hostLostAfterS ?? DEFAULT_RECOVERY.hostLostAfterS]));
  return running.map((runId) => ({ runId, hostLostAfterS: limits.get(runId) ?? fallback }));
}

/** Every run of the batch: the store's rows, running where the workflow says so, with their stage and latest host. */
async function statusRuns(sources: BatchSources, storeRuns: readonly Run[], running: readonly string[], stages: Record<string, string>): Promise<StatusJson['runs']> {
  const claims = sources.store && storeRuns.length > 0 ? await sources.store.getRunHosts(storeRuns.map((r) => r.run_id)) : [];
  const host = latestClaims(claims);
  const runningNow = new Set(running);
  const known = new Set(storeRuns.map((r) => r.run_id));
  const rows: StatusJson['runs'] = storeRuns.map((r) => {
    const status = runningNow.has(r.run_id) && r.status === 'pending' ? 'running' : r.status;
    return { run_id: r.run_id, case_id: r.case_id, arm: r.arm, attempt_index: r.attempt_index, status, result: r.result, stage: status === 'running' ? (stages[r.run_id] ?? null) : null, host: host.get(r.run_id)?.host_id ?? null };
  });
  for (const runId of running) {
    if (!known.has(runId)) rows.push({ run_id: runId, case_id: null, arm: null, attempt_index: null, status: 'running', result: null, stage: stages[runId] ?? null, host: null });
  }
  // Numeric order, so attempt -10 of --runs-per-case comes after -9, not after -1.
  return rows.sort((a, b) => a.run_id.localeCompare(b.run_id, 'en', { numeric: true }));
}

/** What a live batch waits for when no worker polls its queue. */
function noWorker(batchId: string, sources: BatchSources): string {
  if (sources.temporal?.mode === 'cluster') {
    return `for a worker: nothing polls task queue ${SHARED_TASK_QUEUE} at ${sources.temporal.address}; start \`evalflow worker\` on a host`;
  }
  return `for a worker: the batch stopped with the process that ran it; \`evalflow attach ${batchId}\` continues it (or \`evalflow worker\`)`;
}

/** What a batch the store calls open waits for when Temporal does not run it. */
function notServed(batchId: string, temporalDown: string | null, sources: BatchSources): string {
  if (temporalDown && sources.temporal === null && sources.temporalDown?.message.startsWith('Temporal is not running')) {
    return `for Temporal and a worker: ${temporalDown}; \`evalflow attach ${batchId}\` starts both and continues the batch`;
  }
  if (temporalDown) return `${temporalDown}; the batch goes on in Temporal once it is back`;
  return 'Temporal does not know this batch (the dev server keeps closed workflows 24 hours; or it ran on another server)';
}
