import type { CommandIo } from '../cli/io.js';
import { runLingeringService } from '../store/index.js';

export interface StoreServiceOptions {
  dataDir: string;
  socket: string;
  linger: number;
  schema?: string;
}

/**
 * `evalflow store-service` (hidden): the lingering store service a look-up starts when it finds
 * the embedded store free (see src/store/lingeringService.ts). Its output goes to the log the
 * look-up opened for it (`$EVALFLOW_HOME/store-service.log`).
 */
export async function run(options: StoreServiceOptions, io: CommandIo): Promise<number> {
  const log = (line: string): void => io.err(`${new Date().toISOString()} store service ${process.pid}: ${line}`);
  try {
    await runLingeringService({ dataDir: options.dataDir, socket: options.socket, lingerS: options.linger, ...(options.schema ? { schema: options.schema } : {}), log });
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  }
  return 0;
}
