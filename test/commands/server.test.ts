import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli } from '../support/cliProcess.js';
import { freePort } from '../support/temporalServer.js';

describe('evalflow server --worker', () => {
  let fixture: BatchFixture;

  beforeAll(async () => {
    fixture = await createBatchFixture();
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('runs the dev server and a worker in the foreground until Ctrl-C', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(await freePort()) };
    const server = startCli(['server', '--worker'], { cwd: fixture.root, env });
    await server.waitForLine(/^a worker runs here too: batches and schedules run while this process does$/, 90_000);
    const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
    try {
      const client = new Client({ connection });
      const pollers = await client.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: SHARED_TASK_QUEUE },
        taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      expect(pollers.pollers?.length ?? 0).toBeGreaterThan(0);
    } finally {
      await connection.close();
    }
    server.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });
});
