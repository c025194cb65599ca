// suite group: beside (most of it waits while the server is down through two due times)
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { openRuntime, type EvalRuntime } from '../../src/cli/runtime.js';
import { run as schedule } from '../../src/commands/schedule.js';
import { loadSettings } from '../../src/config.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startRestartableTemporal, type RestartableTemporal } from '../support/temporalServer.js';

/** The due times the test gives the schedule: this far apart, the first this far after the change (time to kill the server). */
const EVERY_MS = 10_000;
const LEAD_MS = 6_000;

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

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
    // Clear of a minute boundary: the created 1 m interval must not fire before its timing is changed below.
    if (60_000 - (Date.now() % 60_000) < 5_000) await sleepUntil(Math.ceil(Date.now() / 60_000) * 60_000 + 500);
    expect(await schedule({ action: 'create', name: 'sleepy', every: '1m', only: 'tiny', candidate: 'slow' }, io)).toBe(0);

    // The policies are the product's, as create set them; the test changes only the timing: `--every`
    // has a 1 minute minimum, and two missed minutes would cost the test two minutes of waiting.
    const connection = await Connection.connect({ address: temporal.address });
    const sleepy = new Client({ connection }).schedule.getHandle('sleepy');
    const policies = await sleepy.describe();
    expect(policies.raw.schedule?.policies?.overlapPolicy).toBe(proto.temporal.api.enums.v1.ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP);
    expect(policies.policies.catchupWindow).toBe(24 * 3_600_000);
    // Exactly two due times, both while the server is down, none after it is back.
    const first = Math.ceil((Date.now() + LEAD_MS) / 1_000) * 1_000;
    const second = first + EVERY_MS;
    await sleepy.update((previous) => ({
      ...previous,
      spec: { intervals: [{ every: EVERY_MS, offset: first % EVERY_MS }], startAt: new Date(first), endAt: new Date(second) },
    }));
    // The schedule applies the change in a workflow task of its own, after the call returns: killed
    // before, the server would come back to the old timing (and drop the new due times as older than the change).
    let applied = await sleepy.describe();
    const isApplied = () => applied.info.nextActionTimes[0]?.getTime() === first;
    while (!isApplied() && Date.now() < first) applied = await new Promise((r) => setTimeout(r, 100)).then(() => sleepy.describe());
    await connection.close();
    await temporal.kill();
    if (!isApplied() || applied.info.numActionsTaken > 0 || Date.now() >= first) {
      const seen = `timing applied: ${isApplied()}, ${applied.info.numActionsTaken} action(s) taken, killed ${Date.now() - first} ms after the first due time`;
      throw new Error(`the server was not down with the new timing before its first due time (${seen}): the machine is too slow for this test's ${LEAD_MS} ms lead`);
    }
    // The laptop sleeps through both due times.
    await sleepUntil(second + 1_000);
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
    expect(described.policies).toEqual(policies.policies);
    expect(started).toHaveLength(1);
    expect(batches).toHaveLength(1);
    expect(described.info.numActionsSkippedOverlap).toBe(1);
    expect(described.info.numActionsMissedCatchupWindow).toBe(0);
  });
});
