import { loadSettings } from '../config.js';
import { locateTemporalBinary } from '../temporal/binary.js';
import { startDevServer } from '../temporal/devServer.js';
import type { CommandIo } from './io.js';

/** `evalflow server`: the Temporal dev server with its Web UI, in the foreground until Ctrl-C. */
export async function run(options: { config?: string }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const binary = await locateTemporalBinary({ onProgress: (line) => io.err(line) });
  const server = await startDevServer({
    binary,
    dbFilename: settings.temporal.dbFilename,
    port: settings.temporal.port,
    uiPort: settings.temporal.uiPort,
    namespace: settings.temporal.namespace,
    onLog: (line) => io.err(line),
  });
  io.out(`Temporal dev server on ${server.address} (namespace ${server.namespace}), history in ${settings.temporal.dbFilename}`);
  io.out(`Web UI: ${server.uiUrl}`);
  io.out('evalflow commands in other terminals use this server; Ctrl-C stops it.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.err('stopping the Temporal dev server');
  await server.stop();
  return 0;
}
