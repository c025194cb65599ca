import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { openRuntime, type EvalRuntime } from '../../src/cli/runtime.js';
import { run as schedule } from '../../src/commands/schedule.js';
import { loadSettings } from '../../src/config.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startRestartableTemporal, type RestartableTemporal } from '../support/temporalServer.js';

/** Sleeps until the next time that is `second` seconds past a minute boundary; returns it. */
async function untilSecond(second: number): Promise<number> {
  const now = Date.now();
  let at = Math.floor(now / 60_000) * 60_000 + second * 1_000;
  if (at <= now) at += 60_000;
  await new Promise((r) => setTimeout(r, at - now));
  return at;
}

describe('evalflow schedule: catch-up after the server was down', () => {
  let temporal: RestartableTemporal;
  let fixture: BatchFixture;
  let runtime: EvalRuntime | null = null;
  let schema: string;

  beforeAll(async () => {
    temporal = await startRestartableTemporal();
    fixture = await createBatchFixture();
    schema = randomSchema();
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await temporal?.stop();
    await fixture?.close();
    if (schema) await dropSchema(schema);
  });

  it('two firings missed while the server was down run once when it is back (catch-up, then overlap skip)', { timeout: 300_000 }, async () => {
    const env = { ...fixture.env, TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema };
    // The slow candidate keeps the caught-up batch running while the second missed firing is processed.
    const io = memoryIo(fixture.root, env);
    const asleep = await untilSecond(50);
    expect(await schedule({ action: 'create', name: 'sleepy', every: '1m', only: 'tiny', candidate: 'slow' }, io)).toBe(0);
    await temporal.kill();
    // The laptop sleeps through two due times (the next two minute boundaries).
    await new Promise((r) => setTimeout(r, asleep + 72_000 - Date.now()));
    await temporal.restart();
    runtime = await openRuntime(await loadSettings(fixture.root, env), memoryIo(fixture.root, env), { worker: true, sandboxRoot: join(fixture.root, 'sandboxes') });
    const deadline = Date.now() + 60_000;
    let batches = await runtime.store.listScheduledBatches('sleepy', 10);
    while (batches.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      batches = await runtime.store.listScheduledBatches('sleepy', 10);
    }
    const handle = runtime.temporal.client.schedule.getHandle('sleepy');
    await handle.pause();
    const described = await handle.describe();
    const started: string[] = [];
    for await (const w of runtime.temporal.client.workflow.list({ query: 'TemporalScheduledById = "sleepy"' })) started.push(w.workflowId);
    expect(started).toHaveLength(1);
    expect(batches).toHaveLength(1);
    expect(described.info.numActionsSkippedOverlap).toBe(1);
    expect(described.info.numActionsMissedCatchupWindow).toBe(0);
  });
});
