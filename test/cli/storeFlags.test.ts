import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { run as bless } from '../../src/commands/bless.js';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/run.js';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { UsageError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { aCase, writeTree } from '../evalset/caseFixture.js';
import { startTestTemporal } from '../support/temporalServer.js';

/** Flags that name something in the store are resolved before anything starts. */
async function project() {
  const root = await writeTree({
    'evalflow.config.yaml': 'project: app\nworkflow_dir: team\n',
    'app/index.js': '',
    'team/rules/style.md': '',
    ...aCase('demo', {}, 'eval_sets/'),
  });
  // Temporal on port 1: a run that got as far as starting would fail on it instead.
  const env = { PATH: process.env.PATH, EVALFLOW_HOME: 'state', EVALFLOW_TEMPORAL_PORT: '1' };
  const settings = await loadSettings(root, env, {});
  return { root, env, settings };
}

describe('flags naming what the store holds', () => {
  it('run --baseline with an unknown batch fails at once, naming the flag and the recent batches', { timeout: 60_000 }, async () => {
    const { root, env, settings } = await project();
    const store = await openStore(storeOptions(settings));
    await store.upsertBatch({ batch_id: 'batch-real', status: 'completed' });
    await store.close();
    const io = memoryIo(root, env);
    const refused = run({ baseline: 'batch-nope' }, io);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow("--baseline 'batch-nope' is no batch, batch:arm or workflow_rev in the store; recent batches: batch-real");
    expect(io.stdout).toEqual([]);
    expect(io.stderr.filter((line) => /temporal/i.test(line))).toEqual([]);
    expect(existsSync(join(root, 'runs'))).toBe(false);
  });

  it('bless --schedule refuses a schedule neither the store nor Temporal knows, and accepts a known or a created one', { timeout: 120_000 }, async () => {
    const temporal = await startTestTemporal();
    const connection = await Connection.connect({ address: `127.0.0.1:${temporal.port}` });
    try {
      const { root, settings } = await project();
      const env = { PATH: process.env.PATH, EVALFLOW_HOME: 'state', EVALFLOW_TEMPORAL_PORT: String(temporal.port) };
      const store = await openStore(storeOptions(settings));
      await store.upsertBatch({ batch_id: 'batch-a', status: 'completed' });
      await store.blessBaseline({ schedule: 'nightly', batch_id: 'batch-a', blessed_by: 'test', blessed_at: '2026-12-01T00:00:00Z' });
      await store.upsertBatch({ batch_id: 'batch-b', status: 'completed' });
      await store.close();
      // Created and never fired: Temporal knows it, the store does not yet.
      await new Client({ connection }).schedule.create({
        scheduleId: 'weekly',
        spec: { cronExpressions: ['0 3 * * 0'] },
        action: { type: 'startWorkflow', workflowType: 'scheduledBatchWorkflow', taskQueue: 'nobody', args: [] },
        state: { paused: true },
      });

      const io = memoryIo(root, env);
      await expect(bless({ batchId: 'batch-b', schedule: 'nigthly' }, io)).rejects.toThrow(
        "--schedule 'nigthly': expected a schedule that exists; none of that name in the store or on Temporal (`evalflow schedule list` lists them)",
      );
      expect(await bless({ batchId: 'batch-b', schedule: 'nightly' }, io)).toBe(0);
      expect(await bless({ batchId: 'batch-b', schedule: 'weekly' }, io)).toBe(0);
      expect(io.stdout).toEqual(['schedule nightly: baseline batch-b (was batch-a)', 'schedule weekly: baseline batch-b']);

      // Temporal down: the store's answer stands, said as a warning.
      const down = memoryIo(root, { ...env, EVALFLOW_TEMPORAL_PORT: '1' });
      expect(await bless({ batchId: 'batch-a', schedule: 'monthly' }, down)).toBe(0);
      expect(down.stderr.join('\n')).toContain("warning: --schedule 'monthly' has no batch or baseline in the store and Temporal is not running to confirm it exists");
    } finally {
      await connection.close();
      await temporal.stop();
    }
  });
});
