import { loadSettings } from '../config.js';
import { recordLiveView, startViewServer } from '../dashboard/index.js';
import { StoreError } from '../errors.js';
import type { BatchProgress } from '../run/progress.js';
import { openStore } from '../store/index.js';
import { connectTemporal, type TemporalHandle } from '../temporal/connection.js';
import { batchProgressQuery } from '../workflows/definitions.js';
import type { CommandIo } from '../cli/io.js';
import { heldStoreOptions } from '../cli/storeOptions.js';
import { runStages } from '../cli/batch/runStages.js';

/**
 * `evalflow view [--port 8300] [--host 127.0.0.1]`: a local, read-only web app over the store
 * (the dashboard live, with a running batch's progress from its workflow, batch pages that
 * follow a running batch's runs, run pages with the transcript viewer). The store is opened
 * without migrating it: a viewer never writes, so a store of another schema version is refused
 * with what to do. On the embedded store it is served by whichever process holds it (a worker
 * running a batch, see docs/store-service.md). Records its URL in EVALFLOW_HOME/view.json while
 * it serves, for `evalflow dashboard` to link to. Serves until interrupted.
 */
const PROGRESS_DEADLINE_MS = 2_000;
/** After Temporal did not answer, how long the viewer asks the store alone before trying again. */
const TEMPORAL_RETRY_MS = 30_000;

export async function run(options: { port?: number; host?: string; config?: string }, io: CommandIo, signal?: AbortSignal): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore({ ...heldStoreOptions(settings), migrate: false });
  let temporal = null as TemporalHandle | null;
  let temporalFailedAt = 0;
  let unrecord: (() => Promise<void>) | undefined;
  // A poll every few seconds must not pay a connection attempt each time Temporal is down.
  const connected = async (): Promise<TemporalHandle | null> => {
    if (temporal || Date.now() - temporalFailedAt < TEMPORAL_RETRY_MS) return temporal;
    temporal = await connectTemporal(settings, (line) => io.err(line), { startEmbedded: false }).catch(() => null);
    if (!temporal) temporalFailedAt = Date.now();
    return temporal;
  };
  try {
    const { recorded, known } = await store.schemaVersion();
    if (recorded !== known) {
      throw new StoreError(
        recorded < known
          ? `the store has schema version ${recorded}, this evalflow reads version ${known}; run any evalflow command that writes (e.g. \`evalflow summarize\`) to migrate it, then view it`
          : `the store has schema version ${recorded}, newer than this evalflow's ${known}; view it with the evalflow that wrote it (or upgrade)`,
      );
    }
    const { server, url } = await startViewServer({
      store,
      prices: settings.prices,
      host: options.host ?? settings.view.host,
      port: options.port ?? settings.view.port,
      summariesDir: settings.summariesDir,
      temporalUi: settings.temporal.address ? null : { url: `http://127.0.0.1:${settings.temporal.uiPort}`, namespace: settings.temporal.namespace },
      batchProgress: async (batchId) => {
        const handle = await connected();
        if (!handle) return null;
        // A query needs a worker to answer; the page must not hang on one that is gone.
        return handle.client.connection.withDeadline(Date.now() + PROGRESS_DEADLINE_MS, () => handle.client.workflow.getHandle(batchId).query(batchProgressQuery)).catch((): BatchProgress | null => null);
      },
      runStages: async (batchId) => {
        const handle = await connected();
        return handle ? runStages(handle, batchId, PROGRESS_DEADLINE_MS) : null;
      },
    });
    // Listening for Ctrl-C before saying it stops the viewer: one pressed at once closes it cleanly too.
    const stopped = new Promise<void>((resolve) => {
      const stop = () => server.close(() => resolve());
      signal?.addEventListener('abort', stop, { once: true });
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    io.out(`evalflow view: ${url} (read-only; Ctrl-C stops it)`);
    unrecord = await recordLiveView(settings.stateDir, url).catch(() => undefined);
    await stopped;
    return 0;
  } finally {
    await unrecord?.().catch(() => undefined);
    await temporal?.close();
    await store.close();
  }
}
