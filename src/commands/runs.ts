import { loadSettings } from '../config.js';
import type { RunState } from '../run/runStatus.js';
import { openStore } from '../store/index.js';
import { EXIT } from './exitCodes.js';
import type { CommandIo } from './io.js';
import { formatRunTable } from './runTable.js';
import { storeOptions } from './runtime.js';

export interface RunsOptions {
  config?: string;
  batch?: string;
  status?: RunState;
  limit?: number;
}

const DEFAULT_LIMIT = 50;

/** `evalflow runs [--batch ID] [--status S] [--limit N]`: the store's runs, newest first, as the table of `run`. */
export async function run(options: RunsOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(storeOptions(settings));
  try {
    const runs = await store.listRuns({
      ...(options.batch ? { batchId: options.batch } : {}),
      ...(options.status ? { status: options.status } : {}),
      limit: options.limit ?? DEFAULT_LIMIT,
    });
    if (runs.length === 0) {
      const batch = options.batch ? await store.getBatch(options.batch) : null;
      if (options.batch && !batch) {
        io.err(`error: no batch ${options.batch} in the store (\`evalflow batches\` lists them)`);
        return EXIT.unknownBatch;
      }
      io.err(`no run matches${options.batch ? ` in batch ${options.batch}` : ''}${options.status ? ` with status ${options.status}` : ''}`);
      return EXIT.ok;
    }
    for (const line of formatRunTable(runs, io.cwd)) io.out(line);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
