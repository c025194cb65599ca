/**
 * A process that holds the embedded store the way a worker does, for tests of the store
 * service: `node --import tsx test/support/holdStore.ts` in a workspace folder. It opens the
 * store the settings name (so it serves it), seeds a finished scheduled batch `batch-held`
 * with runs `run-held-1..3`, prints `holding <pid>`, and closes at SIGTERM.
 */
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { aRun, aScore } from '../store/builders.js';

const settings = await loadSettings(process.cwd(), process.env);
const store = await openStore(storeOptions(settings));
await store.upsertBatch({ batch_id: 'batch-held', status: 'completed', spec: { schedule: 'nightly' }, counts: { pass: 3 }, created_at: '2026-03-01T00:00:00Z' });
for (const n of [1, 2, 3]) {
  const runId = `run-held-${n}`;
  await store.upsertRun(aRun({ run_id: runId, batch_id: 'batch-held', status: 'completed' }));
  await store.saveScore(runId, aScore({ judged_at: `2026-03-01T00:0${n}:00Z` }));
}
process.stdout.write(`holding ${process.pid}\n`);
process.once('SIGTERM', () => {
  void store.close().then(() => process.exit(0));
});
setInterval(() => undefined, 60_000);
