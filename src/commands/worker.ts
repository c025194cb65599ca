import { loadSettings } from '../config.js';
import { whyCannotContain } from '../containment/index.js';
import { ConfigError } from '../errors.js';
import { openStore } from '../store/index.js';
import { connectTemporal } from '../temporal/connection.js';
import { SHARED_TASK_QUEUE } from '../temporal/names.js';
import { startWorkers } from '../worker.js';
import type { CommandIo } from '../cli/io.js';
import { storeOptions } from '../cli/storeOptions.js';
import { superviseWorkers } from '../cli/batch/superviseWorkers.js';

/**
 * `evalflow worker`: serves the shared queue and this host's queue until Ctrl-C (or SIGTERM),
 * through Temporal outages of any length: it says once that the server is away, and starts
 * again when it is back if the SDK's workers gave up meanwhile.
 */
export async function run(options: { config?: string }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  // A worker that cannot contain candidates would fail every contained run it took: it says so and stops first.
  const why = settings.isolation === 'sandbox' ? whyCannotContain() : null;
  if (why) throw new ConfigError(`this worker cannot contain candidates (isolation: sandbox): ${why}`);
  if (settings.isolation === 'none') io.err('warning: isolation: none: candidates of batches that do not ask for a sandbox run uncontained on this worker');
  // On a cluster every worker must write where the clients read: a private PGlite here would split the results.
  if (settings.temporal.address && !settings.databaseUrl) {
    throw new ConfigError(`this worker joins the cluster at ${settings.temporal.address} (${settings.temporal.connection.sources.address}) without a shared store: set DATABASE_URL to the PostgreSQL its clients use`);
  }
  const store = await openStore(storeOptions(settings));
  try {
    const temporal = await connectTemporal(settings, (line) => io.err(line));
    try {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        let announced = false;
        await superviseWorkers({
          temporal,
          io,
          signal: stop.signal,
          start: async () => {
            const workers = await startWorkers({ settings, store, connection: temporal.nativeConnection, namespace: temporal.namespace, env: io.env });
            if (!announced) io.out(`worker on ${temporal.address} (namespace ${temporal.namespace}), queues ${SHARED_TASK_QUEUE} and ${workers.hostQueue}`);
            announced = true;
            return workers;
          },
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    } finally {
      await temporal.close();
    }
  } finally {
    await store.close();
  }
  return 0;
}
