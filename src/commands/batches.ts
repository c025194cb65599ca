import { loadSettings } from '../config.js';
import { openStore, type Batch, type BatchStatus } from '../store/index.js';
import { formatCounts, plannedTotal } from '../cli/batch/counts.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';
import { storeOptions } from '../cli/storeOptions.js';
import { formatTable } from '../cli/output/table.js';

export interface BatchesOptions {
  config?: string;
  status?: BatchStatus;
  limit?: number;
}

const DEFAULT_LIMIT = 20;

/** `evalflow batches`: the store's batches, newest first: id, status, counts, candidate, started. */
export async function run(options: BatchesOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(storeOptions(settings));
  try {
    const batches = await store.listBatches({ ...(options.status ? { status: options.status } : {}), limit: options.limit ?? DEFAULT_LIMIT });
    if (batches.length === 0) {
      io.err(options.status ? `no ${options.status} batch in the store` : 'no batch in the store yet: `evalflow run` starts one');
      return EXIT.ok;
    }
    for (const line of formatBatchTable(batches)) io.out(line);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** batch, status, runs (finished/total: pass, fail, …), candidate, started (UTC, to the second). */
export function formatBatchTable(batches: Batch[]): string[] {
  const rows = batches.map((b) => [
    b.batch_id,
    b.status,
    formatCounts(b.counts, plannedTotal(b)),
    typeof b.spec.candidate === 'string' ? b.spec.candidate : '-',
    b.created_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z'),
  ]);
  const header = ['batch', 'status', 'runs', 'candidate', 'started'];
  return formatTable(header, rows);
}
