/**
 * A long-running process that writes through the embedded store, for takeover tests:
 * `node --import tsx test/support/storeWriter.ts <name>` in a workspace folder whose store
 * another process holds (holdStore.ts seeds `batch-held`). Every 50 ms it writes run
 * `run-<name>-<n>` with a score, then prints `wrote <n> via <who serves the store, or self>`.
 * A failed write prints `failed <n>: <message>` and exits 1. At SIGTERM it closes the store
 * (letting it go when it holds it) and prints `done <n>`.
 */
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { aRun, aScore } from '../store/builders.js';

const name = process.argv[2] ?? 'writer';
const settings = await loadSettings(process.cwd(), process.env);
const store = await openStore(storeOptions(settings));
let written = 0;
let stopping = false;
process.once('SIGTERM', () => {
  stopping = true;
});
process.stdout.write(`open via ${store.servedBy ?? 'self'}\n`);
while (!stopping) {
  const n = written + 1;
  try {
    await store.upsertRun(aRun({ run_id: `run-${name}-${n}`, batch_id: 'batch-held', status: 'completed' }));
    await store.saveScore(`run-${name}-${n}`, aScore({ judged_at: new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString() }));
  } catch (err) {
    process.stdout.write(`failed ${n}: ${(err as Error).message}\n`);
    process.exit(1);
  }
  written = n;
  process.stdout.write(`wrote ${n} via ${store.servedBy ?? 'self'}\n`);
  await new Promise((wait) => setTimeout(wait, 50));
}
await store.close();
process.stdout.write(`done ${written}\n`);
