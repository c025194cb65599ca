/**
 * A long-running store client that stays quiet until asked, for the lingering service's tests:
 * `node --import tsx test/support/quietStoreClient.ts` in a workspace folder. It opens the
 * store as a worker does (holding it when free, else served) and prints `open via <who>`; each
 * line `write <n>` on stdin writes run `run-quiet-<n>` and prints `wrote <n> via <who>`; at
 * SIGTERM it closes the store and prints `done`.
 */
import { createInterface } from 'node:readline';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { aRun } from '../store/builders.js';

const settings = await loadSettings(process.cwd(), process.env);
const store = await openStore(storeOptions(settings));
await store.upsertBatch({ batch_id: 'batch-quiet', status: 'running', spec: {}, counts: {}, created_at: '2026-03-01T00:00:00Z' });
const via = (): string => store.servedBy ?? 'self';
process.stdout.write(`open via ${via()}\n`);
process.once('SIGTERM', () => {
  void store.close().then(() => {
    process.stdout.write('done\n');
    process.exit(0);
  });
});
for await (const line of createInterface({ input: process.stdin })) {
  const n = /^write (\d+)$/.exec(line)?.[1];
  if (n === undefined) continue;
  try {
    await store.upsertRun(aRun({ run_id: `run-quiet-${n}`, batch_id: 'batch-quiet', status: 'completed' }));
    process.stdout.write(`wrote ${n} via ${via()}\n`);
  } catch (err) {
    process.stdout.write(`failed ${n}: ${(err as Error).message}\n`);
  }
}
