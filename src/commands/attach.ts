import { loadSettings } from '../config.js';
import type { BatchResult } from '../run/batchInput.js';
import type { BatchProgress } from '../run/progress.js';
import { isUnfinished } from '../vocabulary/runStatus.js';
import type { Batch, Store } from '../store/index.js';
import { batchProgressQuery } from '../workflows/definitions.js';
import { formatCounts, plannedTotal } from '../cli/batch/counts.js';
import { describeBatch, unknownBatchMessage } from '../cli/batch/lookup.js';
import { EXIT } from '../cli/exitCodes.js';
import { closedStatus, collectBatchReport, createProgressPrinter, followToEnd, printBatchReport, sayDetached } from '../cli/batch/follow.js';
import type { InterruptMode } from '../cli/batch/interrupts.js';
import { linesToStderr, type CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { BatchResultJson, batchResultJson } from '../cli/json/batchResult.js';
import { createReconnectingCalls, type ReconnectingCalls } from '../cli/batch/reconnects.js';
import { createRoundsPrinter } from '../cli/batch/roundsProgress.js';
import { reportStoredDecisions, type RoundsEnd } from '../cli/output/decisionsReport.js';
import { openRuntime, type EvalRuntime } from '../cli/runtime.js';

export interface AttachOptions {
  batchId: string;
  config?: string;
  /** commander's --no-worker gives `worker: false`. */
  worker?: boolean;
  onInterrupt?: InterruptMode;
  /** Print the result as one JSON document on stdout (docs/json.md); every other line goes to stderr. */
  json?: boolean;
}

/** How long the first progress answer may take: the worker of this process is still starting. */
const FIRST_ANSWER_MS = 15_000;

/**
 * `evalflow attach BATCH`: follows a batch to its end with the progress lines and the final
 * table of `run`. Without TEMPORAL_ADDRESS it starts the dev server if none runs and a worker
 * in this process, so a batch whose process died goes on where it stopped. Exit codes as
 * `run`: 0 every run completed, 1 otherwise, 130 detached; 3 for an unknown batch. An
 * until-decided batch is followed as `run` follows it: its rounds, then the decisions it stored,
 * and complete when every run it started completed (its plan holds every run it might have needed).
 */
export async function run(options: AttachOptions, given: CommandIo): Promise<number> {
  const io = options.json ? linesToStderr(given) : given;
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  // Where the batch stood before our own worker starts it again: the runs finished since are printed.
  let before: { row: Batch | null; recorded: string[] } | null = null;
  const snapshot = async (store: Store) => ({
    row: await store.getBatch(options.batchId),
    recorded: (await store.listRuns({ batchId: options.batchId })).filter((r) => !isUnfinished(r.status)).map((r) => r.run_id),
  });
  const runtime = await openRuntime(settings, io, {
    worker: options.worker === false ? false : 'auto',
    beforeWorker: async (store) => void (before = await snapshot(store)),
  });
  try {
    const calls = createReconnectingCalls(runtime.temporal.address, runtime.temporal.client.connection, io);
    const description = await calls.call(() => describeBatch(runtime.temporal, options.batchId));
    const { row, recorded } = before ?? (await snapshot(runtime.store));
    // The dev server forgets closed workflows after a day; the store keeps the batch's end.
    const closedInStore = row !== null && row.status !== 'running' && row.status !== 'pending';
    if (!description && !closedInStore) {
      io.err(
        row
          ? `error: Temporal at ${runtime.temporal.address} does not know batch ${options.batchId} (it ran on another server?): \`evalflow status ${options.batchId}\` shows what the store has`
          : await unknownBatchMessage(options.batchId, runtime.store),
      );
      return EXIT.unknownBatch;
    }
    const statusName = description?.status.name ?? row!.status.toUpperCase();
    const open = statusName === 'RUNNING' || statusName === 'CONTINUED_AS_NEW';
    const progress = open ? await firstProgress(runtime, options.batchId) : null;
    // An until-decided batch plans every run a case could need and starts only those its rounds need.
    const untilDecided = row?.spec.until_decided !== undefined || progress?.rounds !== undefined;
    const printer = createProgressPrinter(io, untilDecided ? createRoundsPrinter(io) : undefined);
    let total = untilDecided ? null : plannedTotal(row);
    if (open) {
      if (progress && !untilDecided) total = progress.total;
      // With our own worker, nothing moved before the snapshot; with a cluster's, the query may know more.
      if (before) printer.skip(recorded.length, recorded);
      else printer.skip(progress?.finished ?? 0, [...recorded, ...(progress?.outcomes.map((o) => o.runId) ?? [])]);
      const finished = row ? formatCounts({ ...row.counts, finished: printer.counted }, total) : 'not planned yet';
      io.err(`attached to batch ${options.batchId}: ${finished}${runtime.workers ? '; a worker runs in this process' : ''}`);
    } else {
      io.err(`batch ${options.batchId} already ended (${statusName.toLowerCase()})`);
    }
    const execution = open
      ? await followToEnd(runtime, options.batchId, io, { calls, total: untilDecided ? null : (total ?? 0), printer, ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}) })
      : {
          detached: false as const,
          report: await collectBatchReport(runtime.store, options.batchId, untilDecided ? null : (total ?? 0), null),
          end: { closed: true as const, status: closedStatus(statusName), failure: null, total },
        };
    if (execution.detached) {
      sayDetached(options.batchId, runtime.temporal, io);
      return EXIT.detached;
    }
    printBatchReport(execution.report, execution.end, io, runtime.temporal.uiUrl);
    if (untilDecided) {
      const rounds = execution.end.status === 'completed' && description ? await roundsOf(runtime, options.batchId, calls) : null;
      await reportStoredDecisions(runtime.store, options.batchId, rounds, execution.report.runs.length, settings.summariesDir, io);
    }
    if (options.json) {
      const hosts = await runtime.store.getRunHosts(execution.report.runs.map((r) => r.run_id));
      printJson(given, BatchResultJson, batchResultJson(execution.report, execution.end, hosts, null, runtime.temporal.uiUrl));
    }
    return execution.report.allCompleted ? EXIT.ok : EXIT.notAllCompleted;
  } finally {
    await runtime.close();
  }
}

/** How an until-decided batch's rounds ended, from its result; null when Temporal no longer has it (the store's decisions then say the rest). */
async function roundsOf(runtime: EvalRuntime, batchId: string, calls: ReconnectingCalls): Promise<RoundsEnd | null> {
  try {
    const result = (await calls.call(() => runtime.temporal.client.workflow.getHandle(batchId).result())) as BatchResult;
    return result.rounds ?? null;
  } catch {
    return null;
  }
}

/** Where the batch stands as we attach; null when no worker answers (yet). */
async function firstProgress(runtime: EvalRuntime, batchId: string): Promise<BatchProgress | null> {
  const handle = runtime.temporal.client.workflow.getHandle(batchId);
  try {
    return await runtime.temporal.client.connection.withDeadline(Date.now() + FIRST_ANSWER_MS, () => handle.query(batchProgressQuery));
  } catch {
    return null;
  }
}
