import { loadSettings } from '../config.js';
import type { CommandIo } from './io.js';
import { openRuntime } from './runtime.js';

/** `evalflow worker`: serves the shared queue and this host's queue until Ctrl-C. */
export async function run(options: { config?: string }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const runtime = await openRuntime(settings, io, { worker: true });
  io.out(`worker on ${runtime.temporal.address} (namespace ${runtime.temporal.namespace}), queues evalflow and ${runtime.workers?.hostQueue}`);
  const stop = () => void runtime.workers?.shutdown();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await runtime.workers?.done;
  await runtime.close();
  return 0;
}
