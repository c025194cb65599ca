import type { Settings } from '../config.js';
import { openStore, type Store } from '../store/index.js';
import { connectTemporal, type TemporalHandle } from '../temporal/connection.js';
import { startWorkers, type RunningWorkers } from '../worker.js';
import type { CommandIo } from './io.js';
import { heldStoreOptions } from './storeOptions.js';

/** What a command that runs evals holds open: the store, Temporal, and maybe an in-process worker. */
export interface EvalRuntime {
  store: Store;
  temporal: TemporalHandle;
  workers: RunningWorkers | null;
  close(): Promise<void>;
}

export async function openRuntime(
  settings: Settings,
  io: CommandIo,
  options: {
    /** 'auto': unless Temporal is a team cluster; 'ifHolder': also not when another process serves the store (it runs the worker). */
    worker: boolean | 'auto' | 'ifHolder';
    sandboxRoot?: string;
    /** Reads what must be seen before this process's worker moves anything on (attach's starting point). */
    beforeWorker?: (store: Store) => Promise<void>;
  },
): Promise<EvalRuntime> {
  const store = await openStore(heldStoreOptions(settings));
  let temporal: TemporalHandle;
  try {
    temporal = await connectTemporal(settings, (line) => io.err(line));
  } catch (err) {
    await store.close();
    throw err;
  }
  // A team cluster has its own workers; a local or embedded server gets one in this process.
  const wantWorker = typeof options.worker === 'boolean' ? options.worker : temporal.mode !== 'cluster' && (options.worker === 'auto' || store.servedBy === null);
  let workers: RunningWorkers | null = null;
  if (wantWorker) {
    try {
      await options.beforeWorker?.(store);
      workers = await startWorkers({
        settings,
        store,
        connection: temporal.nativeConnection,
        namespace: temporal.namespace,
        env: io.env,
        say: (line) => io.err(line),
        ...(options.sandboxRoot ? { sandboxRoot: options.sandboxRoot } : {}),
      });
    } catch (err) {
      await temporal.close();
      await store.close();
      throw err;
    }
  }
  return {
    store,
    temporal,
    workers,
    async close() {
      await workers?.shutdown();
      await temporal.close();
      await store.close();
    },
  };
}
