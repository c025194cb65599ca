import { join, relative } from 'node:path';
import { loadSettings } from '../config.js';
import { ConfigError } from '../errors.js';
import { openStore } from '../store/index.js';
import { writeSummaries } from '../dashboard/writeSummaries.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';

/**
 * `evalflow summarize [--batch ID] [--out DIR]`: rebuilds summaries/ from the store as of a
 * batch, default the newest (latest.md, latest-stats.yaml and batch-insights.md of the headline
 * batch, and of the batch's own selection when it was a follow-up over other cases;
 * score-history.yaml of every completed run). Needs no Temporal.
 */
export async function run(options: { batch?: string; out?: string; config?: string }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    if (options.batch && !(await store.getBatch(options.batch))) {
      const recent = (await store.listBatches({ limit: 5 })).map((b) => b.batch_id);
      throw new ConfigError(`no batch ${options.batch} in the store${recent.length ? `; recent batches: ${recent.join(', ')}` : ''}`);
    }
    const dir = options.out ? relative(io.cwd, options.out) || '.' : settings.summariesDir;
    const report = await writeSummaries({ store, summariesDir: options.out ?? settings.summariesDir, prices: settings.prices, ...(options.batch ? { batchId: options.batch } : {}) });
    io.out(report.batchId ? `summaries of ${report.batchId}:` : 'no batch in the store yet:');
    for (const file of report.files) io.out(`  ${relative(io.cwd, file) || file}`);
    if (report.headlineBatchId && report.headlineBatchId !== report.batchId) {
      io.out(`latest.md stays on ${report.headlineBatchId}: ${report.batchId} ran fewer or other cases, so its own summaries are under ${join(dir, 'selections')}/`);
    }
    if (!report.batchId) io.err(`(${dir}: only score-history.yaml and a latest.md saying so)`);
    return 0;
  } finally {
    await store.close();
  }
}
