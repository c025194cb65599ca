import { loadSettings, type Settings } from '../config.js';
import { StoreBusyError } from '../errors.js';
import type { Store } from '../store/index.js';
import { connectTemporal, type TemporalHandle } from '../temporal/connection.js';
import { describeBatch, unknownBatchMessage } from '../cli/batch/lookup.js';
import { batchWorkers, hasWorkers } from '../cli/batch/workers.js';
import { EXIT } from '../cli/exitCodes.js';
import { createProgressPrinter, followBatch } from '../cli/batch/follow.js';
import { handleInterrupts } from '../cli/batch/interrupts.js';
import type { CommandIo } from '../cli/io.js';
import { createReconnectingCalls } from '../cli/batch/reconnects.js';
import { openRuntime } from '../cli/runtime.js';
import { batchProgressQuery } from '../workflows/definitions.js';

export interface CancelOptions {
  batchId: string;
  config?: string;
  /** commander's --no-wait gives `wait: false`. */
  wait?: boolean;
}

/**
 * `evalflow cancel BATCH`: requests the batch's cancellation; its running runs record what
 * they have and clean up. Waits for the batch to close when a worker serves it (without
 * TEMPORAL_ADDRESS this process runs one, unless the process running the batch holds the
 * store), then says how its runs ended. Exit 0, 3 for an unknown batch, 130 when Ctrl-C
 * stops the wait (the cancellation stands).
 */
export async function run(options: CancelOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const opened = await openForCancel(settings, io);
  try {
    const { temporal, store } = opened;
    const calls = createReconnectingCalls(temporal.address, temporal.client.connection, io, { meanwhile: 'the cancellation is sent once it is back' });
    const description = await calls.call(() => describeBatch(temporal, options.batchId));
    if (!description) {
      io.err(await unknownBatchMessage(options.batchId, store));
      return EXIT.unknownBatch;
    }
    if (description.status.name !== 'RUNNING' && description.status.name !== 'CONTINUED_AS_NEW') {
      io.out(`batch ${options.batchId} already ended (${description.status.name.toLowerCase()}): nothing to cancel`);
      return EXIT.ok;
    }
    await calls.call(() => temporal.client.workflow.getHandle(options.batchId).cancel());
    io.out(`cancelling batch ${options.batchId}: its running runs record what they have and clean up`);
    if (options.wait === false) return EXIT.ok;
    // Runs whose worker died hold their cancellation until a timeout: let them record now.
    if (!opened.localWorker && !hasWorkers(await calls.call(() => batchWorkers(temporal.client)))) {
      io.out(`no worker serves it now: it closes as cancelled when one runs (\`evalflow worker\`${temporal.mode === 'cluster' ? '' : ` or \`evalflow attach ${options.batchId}\``})`);
      return EXIT.ok;
    }

    const leaving = new AbortController();
    const stopHandling = handleInterrupts('detach', io, { detach: () => leaving.abort(), cancel: () => undefined, leave: () => undefined });
    try {
      const printer = createProgressPrinter(io);
      const end = await followBatch(options.batchId, { temporal, calls, query: batchProgressQuery, printer, signal: leaving.signal, localWorker: opened.localWorker });
      if (!end.closed) {
        io.out(`stopped waiting: batch ${options.batchId} goes on cancelling in Temporal (\`evalflow status ${options.batchId}\`)`);
        return EXIT.detached;
      }
      io.out(end.status === 'cancelled' ? `batch ${options.batchId} cancelled` : `batch ${options.batchId} ended (${end.status}) before the cancellation took effect`);
      if (store) io.out(await describeRuns(store, options.batchId));
      return EXIT.ok;
    } finally {
      stopHandling();
    }
  } finally {
    await opened.close();
  }
}

interface CancelSources {
  temporal: TemporalHandle;
  store: Store | null;
  /** A worker runs in this process, so the cancelled runs can record themselves. */
  localWorker: boolean;
  close(): Promise<void>;
}

/**
 * Without TEMPORAL_ADDRESS a worker in this process lets the runs record themselves; when the
 * process running the batch holds the store (PGlite), that process has a worker already.
 */
async function openForCancel(settings: Settings, io: CommandIo): Promise<CancelSources> {
  try {
    const runtime = await openRuntime(settings, io, { worker: 'ifHolder' });
    return { temporal: runtime.temporal, store: runtime.store, localWorker: runtime.workers !== null, close: () => runtime.close() };
  } catch (err) {
    if (!(err instanceof StoreBusyError)) throw err;
    const temporal = await connectTemporal(settings, (line) => io.err(line), { startEmbedded: false });
    return { temporal, store: null, localWorker: false, close: () => temporal.close() };
  }
}

/** `runs: 2 completed, 3 cancelled (\`evalflow runs --batch …\` lists them)` */
async function describeRuns(store: Store, batchId: string): Promise<string> {
  const tally = new Map<string, number>();
  for (const run of await store.listRuns({ batchId })) tally.set(run.status, (tally.get(run.status) ?? 0) + 1);
  const parts = [...tally].map(([status, n]) => `${n} ${status}`);
  return `runs: ${parts.length ? parts.join(', ') : 'none started'} (\`evalflow runs --batch ${batchId}\` lists them)`;
}
