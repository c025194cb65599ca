import { availableParallelism, hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadSettings, type Settings } from '../config.js';
import { ConfigError } from '../errors.js';
import { openStore } from '../store/index.js';
import { SHARED_TASK_QUEUE, SLOTS_TASK_QUEUE } from '../temporal/names.js';
import { WORKER_HEARTBEAT_S, WORKER_STALE_S } from '../temporal/workerHeartbeat.js';
import type { Store } from '../store/index.js';
import { startWorkers, type RunningWorkers } from '../worker.js';
import type { CommandIo } from '../cli/io.js';
import { ownRunsDir, storeOptions } from '../cli/storeOptions.js';
import { EXIT } from '../cli/exitCodes.js';
import { formatPreflight } from '../cli/preflight/preflightTable.js';
import { workerPreflight } from '../cli/preflight/workerPreflight.js';
import { superviseWorkers } from '../cli/batch/superviseWorkers.js';

export interface WorkerCommandOptions {
  config?: string;
  /** The most runs this host takes at once; default its cores. */
  slots?: number;
  /** Ask this host's running workers to drain, and wait until they have exited. */
  drain?: boolean;
}

/**
 * `evalflow worker`: first a preflight, printed as one table (Temporal, the store,
 * containment, the examiner's and judge's endpoints, the agent CLIs installed); without
 * Temporal or the store it exits (69 when unreachable) with one line naming the setting.
 * Then it serves the shared queue, this host's queue and the slots queue until
 * Ctrl-C (or SIGTERM), through Temporal outages of any length: it says once that the server
 * is away, and starts again when it is back if the SDK's workers gave up meanwhile. It holds
 * at most `--slots` runs at once; SIGUSR2 (or `evalflow worker --drain` on the same host id)
 * makes it finish those, take no new ones and exit 0.
 */
export async function run(options: WorkerCommandOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  if (options.drain) {
    const store = await openStore(storeOptions(settings));
    try {
      return await drainHost(store, io.env.EVALFLOW_HOST_ID ?? hostname(), io);
    } finally {
      await store.close();
    }
  }
  const slots = options.slots ?? availableParallelism();
  // On a cluster every worker must write where the clients read: a private PGlite here would split the results.
  if (settings.temporal.address && !settings.databaseUrl) {
    throw new ConfigError(`this worker joins the cluster at ${settings.temporal.address} (${settings.temporal.connection.sources.address}) without a shared store: set DATABASE_URL to the PostgreSQL its clients use`);
  }
  // Everything the host needs, in one table; a worker without Temporal, its store, or containment it is asked for stops here.
  const checked = await workerPreflight(settings, io.env, (line) => io.err(line));
  for (const line of formatPreflight(checked.rows)) io.out(line);
  if (!checked.ready) {
    io.err(`error: ${checked.failure.line}`);
    return checked.failure.exit;
  }
  if (settings.isolation === 'none') io.err('warning: isolation: none: candidates of batches that do not ask for a sandbox run uncontained on this worker');
  const { store, temporal } = checked;
  try {
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    let current: RunningWorkers | undefined;
    const onDrain = () => void current?.drain();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    process.on('SIGUSR2', onDrain);
    try {
      let announced = false;
      await superviseWorkers({
        temporal,
        io,
        signal: stop.signal,
        start: async () => {
          const workers = await startWorkers({ settings, store, connection: temporal.nativeConnection, namespace: temporal.namespace, env: io.env, slots, say: (line) => io.err(line), ...workerRunsDir(settings) });
          if (!announced) io.out(`worker on ${temporal.address} (namespace ${temporal.namespace}), host ${workers.hostId}, ${slots} slot${slots === 1 ? '' : 's'}, queues ${SHARED_TASK_QUEUE}, ${workers.hostQueue} and ${SLOTS_TASK_QUEUE}`);
          announced = true;
          current = workers;
          return workers;
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGUSR2', onDrain);
    }
  } finally {
    await temporal.close();
    await store.close();
  }
  return 0;
}

/**
 * `evalflow worker --drain`: marks this host's workers draining in the store, where each
 * reads it back within a heartbeat, then waits until their rows are gone (or stale: a worker
 * killed meanwhile). Exit 0, or 1 when no live worker of the host is known.
 */
async function drainHost(store: Store, hostId: string, io: CommandIo): Promise<number> {
  const live = (rows: Awaited<ReturnType<Store['listWorkers']>>) => rows.filter((row) => row.host_id === hostId && Date.now() - Date.parse(row.seen_at) < WORKER_STALE_S * 1000);
  const asked = live(await store.drainHost(hostId));
  if (asked.length === 0) {
    io.err(`no live worker of host ${hostId} in the store: nothing to drain (EVALFLOW_HOST_ID names another host?)`);
    return 1;
  }
  io.out(`draining ${asked.length} worker(s) of host ${hostId}: they finish ${asked.reduce((sum, row) => sum + row.busy, 0)} run(s) and take no new ones`);
  for (;;) {
    const left = live(await store.listWorkers());
    if (left.length === 0) break;
    await sleep(WORKER_HEARTBEAT_S * 1000);
  }
  io.out(`host ${hostId} drained: its workers have exited`);
  return EXIT.ok;
}


function workerRunsDir(settings: Settings): { runsDir?: string } {
  const runsDir = ownRunsDir(settings);
  return runsDir ? { runsDir } : {};
}
