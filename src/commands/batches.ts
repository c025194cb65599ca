import { loadSettings } from '../config.js';
import { openStore, type BatchStatus } from '../store/index.js';
import { formatCounts } from '../cli/batch/counts.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { formatTable } from '../cli/output/table.js';
import { UsageError } from '../errors.js';
import { printJson } from '../cli/json/document.js';
import { batchJson, BatchesJson, type BatchJson } from '../cli/json/batches.js';
import type * as z from 'zod';

export interface BatchesOptions {
  config?: string;
  status?: BatchStatus;
  limit?: number;
  /** The next page: batches listed after this batch id (the cursor the previous page printed). */
  after?: string;
  /** Print the page as JSON (docs/json.md) instead of the table. */
  json?: boolean;
}

const DEFAULT_LIMIT = 20;

/**
 * `evalflow batches [--status S] [--limit N] [--after BATCH]`: the store's batches, newest first
 * (id, status, counts, candidate, started), a page at a time: when more follow, the last line
 * names the batch to continue `--after` (a keyset cursor, as `runs` has).
 */
export async function run(options: BatchesOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const limit = options.limit ?? DEFAULT_LIMIT;
    // One more than the page says whether another page follows.
    const page = await store.listBatches({ ...(options.status ? { status: options.status } : {}), ...(options.after !== undefined ? { olderThan: options.after } : {}), limit: limit + 1 });
    const batches = page.slice(0, limit);
    if (batches.length === 0) {
      if (options.after !== undefined && !(await store.getBatch(options.after))) {
        throw new UsageError(`--after '${options.after}': expected a batch id in the store (the last line of the previous page names one)`);
      }
      if (options.json) printJson(io, BatchesJson, { schema_version: 1, batches: [], next_after: null });
      if (options.after !== undefined) {
        io.err(`no batch after ${options.after}`);
        return EXIT.ok;
      }
      io.err(options.status ? `no ${options.status} batch in the store` : 'no batch in the store yet: `evalflow run` starts one');
      return EXIT.ok;
    }
    const rows = batches.map(batchJson);
    const next = page.length > limit ? batches.at(-1)!.batch_id : null;
    if (options.json) printJson(io, BatchesJson, { schema_version: 1, batches: rows, next_after: next });
    else for (const line of formatBatchTable(rows)) io.out(line);
    if (next) {
      const flags = [
        ...(options.config ? [`--config ${options.config}`] : []),
        ...(options.status ? [`--status ${options.status}`] : []),
        ...(options.limit ? [`--limit ${options.limit}`] : []),
        ...(options.json ? ['--json'] : []),
      ];
      io.err(`more: ${['evalflow batches', ...flags, `--after ${next}`].join(' ')}`);
    }
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** batch, status, runs (finished/total: pass, fail, …), candidate, started (UTC, to the second). */
export function formatBatchTable(batches: readonly z.input<typeof BatchJson>[]): string[] {
  const rows = batches.map((b) => [
    b.batch_id,
    b.status,
    formatCounts(b.counts, b.planned),
    b.candidate ?? '-',
    b.created_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z'),
  ]);
  const header = ['batch', 'status', 'runs', 'candidate', 'started'];
  return formatTable(header, rows);
}
