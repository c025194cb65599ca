import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli } from '../support/cliProcess.js';
import { postgresUrl, rawPostgres } from '../support/postgres.js';
import { freePort, freeTeamPorts } from '../support/temporalServer.js';

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

describe('evalflow server --persistence postgres', () => {
  it('starts the team server on a throwaway database, says where, and stops cleanly on Ctrl-C', { timeout: 180_000 }, async () => {
    const fixture = await createBatchFixture();
    const database = `evalflow_cli_${randomBytes(4).toString('hex')}`;
    const url = new URL(await postgresUrl());
    url.pathname = `/${database}`;
    try {
      const { port, uiPort } = await freeTeamPorts();
      const env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(uiPort) };
      const server = startCli(['server', '--persistence', 'postgres', '--database-url', url.toString()], { cwd: fixture.root, env });
      const said = await server.waitForLine(/^Temporal server on /, 120_000);
      expect(said).toBe(`Temporal server on 127.0.0.1:${port} (namespace default), history in PostgreSQL ${url.hostname}:${url.port || 5432} databases ${database} and ${database}_visibility`);
      await server.waitForLine(/^Web UI: /);
      expect((await fetch(`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows`)).status).toBe(200);
      server.kill('SIGINT');
      expect(await server.exited).toBe(0);
      const tables = await rawPostgres<{ n: string }>(`SELECT count(*) AS n FROM pg_database WHERE datname IN ('${database}', '${database}_visibility')`);
      expect(Number(tables[0]!.n)).toBe(2);
    } finally {
      for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await fixture.close();
    }
  });
});
