import { join, relative } from 'node:path';
import { loadSettings } from '../config.js';
import { runningLiveView, writeDashboard } from '../dashboard/index.js';
import { openStore } from '../store/index.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';

/**
 * `evalflow dashboard [--out FILE]`: rebuilds the one-file offline dashboard from the store
 * (default summaries/dashboard.html). Needs no Temporal. The page says when it was built and,
 * when an `evalflow view` runs for this EVALFLOW_HOME (see liveViewRecord.ts), links to it.
 */
export async function run(options: { out?: string; config?: string }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const path = options.out ?? join(settings.summariesDir, 'dashboard.html');
    const live = await runningLiveView(settings.stateDir);
    const written = await writeDashboard({ store, prices: settings.prices, path, ...(live ? { liveView: live.url } : {}) });
    io.out(`${relative(io.cwd, written.path) || written.path}: ${written.runs} run${written.runs === 1 ? '' : 's'}, ${(written.bytes / 1024).toFixed(0)} KB`);
    if (live) io.out(`it links to the live view at ${live.url} (evalflow view, process ${live.pid})`);
    if (written.runs === 0) io.err('(the store has no runs yet: make some with `evalflow run`)');
    return 0;
  } finally {
    await store.close();
  }
}
