import { loadSettings } from '../config.js';
import type { BatchProgress } from '../run/progress.js';
import type { Batch, Store } from '../store/index.js';
import { DEFAULT_RECOVERY } from '../run/recovery.js';
import { RecoverySchema } from '../run/runSpec.js';
import { SHARED_TASK_QUEUE } from '../temporal/names.js';
import { isUnreachable } from '../temporal/unreachable.js';
import { UNCOUNTED_STATUSES } from '../vocabulary/runStates.js';
import { batchProgressQuery } from '../workflows/definitions.js';
import { formatCounts, plannedTotal } from '../cli/batch/counts.js';
import { describeBatch, newestBatchId, openBatchSources, unknownBatchMessage, type BatchSources } from '../cli/batch/lookup.js';
import { batchWorkers, hasWorkers, type BatchWorkers } from '../cli/batch/workers.js';
import { hostLines, type RunningRun } from '../cli/batch/hosts.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';

export interface StatusOptions {
  batchId?: string;
  config?: string;
}

const QUERY_DEADLINE_MS = 5_000;
const RUNNING_SHOWN = 8;

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
    return await printStatus(batchId, sources, settings.recovery.hostLostAfterS, io);
  } finally {
    await sources.close();
  }
}

async function printStatus(batchId: string, sources: BatchSources, hostLostAfterS: number, io: CommandIo): Promise<number> {
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
    return EXIT.unknownBatch;
  }

  const running = description ? description.status.name === 'RUNNING' || description.status.name === 'CONTINUED_AS_NEW' : row?.status === 'running' || row?.status === 'pending';
  io.out(`batch     ${batchId}`);
  if (running && description && sources.temporal) {
    const workers = await batchWorkers(sources.temporal.client);
    const progress = hasWorkers(workers) ? await queryProgress(sources, batchId) : null;
    printRunning(row, progress, io);
    printWorkers(batchId, workers, sources, io);
    if (sources.store) for (const line of await hostLines(sources.store, await runningRuns(sources.store, batchId, progress, hostLostAfterS))) io.out(line);
    if (progress?.running.length) io.out(`running   ${progress.running.slice(0, RUNNING_SHOWN).join(', ')}${progress.running.length > RUNNING_SHOWN ? `, +${progress.running.length - RUNNING_SHOWN} more` : ''}`);
    printSpec(row, description.startTime, io);
  } else {
    printFromStore(batchId, row, description?.status.name ?? null, temporalDown, sources, io);
    printSpec(row, description?.startTime ?? null, io);
  }
  return EXIT.ok;
}

/**
 * The batch's running runs, each with the `host_lost_after_s` its spec carries (the client that
 * started the batch set it); `fallback`, this client's, for a run not written yet.
 */
async function runningRuns(store: Store, batchId: string, progress: BatchProgress | null, fallback: number): Promise<RunningRun[]> {
  const rows = await store.listRuns({ batchId, status: 'running' });
  const limits = new Map(rows.map((r) => [r.run_id, RecoverySchema.safeParse(r.spec?.recovery).data?.hostLostAfterS ?? DEFAULT_RECOVERY.hostLostAfterS]));
  return (progress?.running ?? rows.map((r) => r.run_id)).map((runId) => ({ runId, hostLostAfterS: limits.get(runId) ?? fallback }));
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

function printRunning(row: Batch | null, progress: BatchProgress | null, io: CommandIo): void {
  const total = progress?.total ?? plannedTotal(row);
  if (!row && !progress) {
    io.out('status    running: starting (not planned yet)');
    return;
  }
  if (row && (!progress || row.counts.finished === progress.finished)) {
    io.out(`status    running, ${formatCounts(row.counts, total)}`);
    return;
  }
  // The store's counts trail the workflow's by up to a few seconds, or the store is busy.
  const outcomes = progress!.outcomes;
  const window = outcomes.length < progress!.finished ? ` (of the last ${outcomes.length})` : '';
  io.out(`status    running, ${formatCounts(progressCounts(progress!), total)}${window}`);
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

function printWorkers(batchId: string, workers: BatchWorkers, sources: BatchSources, io: CommandIo): void {
  if (hasWorkers(workers)) {
    const here = workers.here.length ? [`${workers.here.length} here (pid ${workers.here.join(', ')})`] : [];
    const elsewhere = workers.elsewhere.length ? [`${workers.elsewhere.length} elsewhere (${workers.elsewhere.join(', ')})`] : [];
    io.out(`workers   ${[...here, ...elsewhere].join(', ')}`);
    return;
  }
  if (sources.temporal?.mode === 'cluster') {
    io.out(`waiting   for a worker: nothing polls task queue ${SHARED_TASK_QUEUE} at ${sources.temporal.address}; start \`evalflow worker\` on a host`);
  } else {
    io.out(`waiting   for a worker: the batch stopped with the process that ran it; \`evalflow attach ${batchId}\` continues it (or \`evalflow worker\`)`);
  }
}

function printFromStore(batchId: string, row: Batch | null, temporalStatus: string | null, temporalDown: string | null, sources: BatchSources, io: CommandIo): void {
  const total = plannedTotal(row);
  const counts = row ? `, ${formatCounts(row.counts, total)}` : '';
  const status = row?.status ?? temporalStatus?.toLowerCase() ?? 'unknown';
  const stillOpen = status === 'running' || status === 'pending';
  io.out(`status    ${status}${counts}${stillOpen && row ? ` (the store's last word, ${row.updated_at})` : ''}`);
  if (!stillOpen) {
    io.out(`runs      \`evalflow runs --batch ${batchId}\``);
    return;
  }
  if (temporalDown && sources.temporal === null && sources.temporalDown?.message.startsWith('Temporal is not running')) {
    io.out(`waiting   for Temporal and a worker: ${temporalDown}; \`evalflow attach ${batchId}\` starts both and continues the batch`);
  } else if (temporalDown) {
    io.out(`waiting   ${temporalDown}; the batch goes on in Temporal once it is back`);
  } else {
    io.out(`waiting   Temporal does not know this batch (the dev server keeps closed workflows 24 hours; or it ran on another server)`);
  }
}

function printSpec(row: Batch | null, startTime: Date | null, io: CommandIo): void {
  const spec = row?.spec ?? {};
  const candidate = typeof spec.candidate === 'string' ? spec.candidate : null;
  if (candidate) {
    const details = [spec.adapter, spec.model].filter((v) => typeof v === 'string').join(', ');
    io.out(`candidate ${candidate}${details ? ` (${details})` : ''}, parallelism ${String(spec.parallelism ?? '?')}, ${String(spec.runs_per_case ?? 1)} run(s) per case`);
  }
  const started = row?.created_at ?? startTime?.toISOString();
  if (started) io.out(`started   ${started}`);
}
