import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failActivitiesOfDeadWorkers } from '../../src/temporal/failover.js';
import type { InflightRecord } from '../../src/temporal/inflightRecord.js';
import { ownerOfThisProcess } from '../../src/sandbox/agentProcesses.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/** A protobuf string field (tag, length, bytes): enough to write a task token by hand. */
function stringField(field: number, value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([(field << 3) | 2, bytes.length]), bytes]);
}

/** A task token as the server writes it (namespace id, workflow id, run id), for a namespace this server never had. */
function tokenOfAnotherServer(): string {
  return Buffer.concat([stringField(1, randomUUID()), stringField(2, 'run-gone@20260101T000000'), stringField(3, randomUUID()), stringField(6, '3')]).toString('base64');
}

function record(owner: InflightRecord['owner']): InflightRecord {
  return { taskToken: tokenOfAnotherServer(), activityType: 'candidateTurn', workflowId: 'run-gone@20260101T000000', activityId: '3', attempt: 1, owner };
}

describe('failActivitiesOfDeadWorkers', () => {
  let temporal: TestTemporal;
  let connection: Connection;
  let dir: string;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    connection = await Connection.connect({ address: temporal.address });
    dir = await mkdtemp(join(tmpdir(), 'evalflow-inflight-'));
  }, 120_000);

  afterAll(async () => {
    await connection?.close();
    await temporal?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drops a dead worker\'s record left by a server that is gone (its namespace unknown here) instead of failing the worker\'s start', async () => {
    // A pid no process has, with a start time no process has: the owner is dead.
    await writeFile(join(dir, 'gone.json'), JSON.stringify(record({ pid: 2 ** 22 + 17, start: 'never' })));
    await writeFile(join(dir, 'torn.json'), '{"taskToken": ');
    await writeFile(join(dir, 'alive.json'), JSON.stringify(record(ownerOfThisProcess())));

    const failed = await failActivitiesOfDeadWorkers(dir, new Client({ connection }));

    expect(failed).toEqual([]);
    // The stale and the torn records are gone; a live worker's record stays.
    expect((await readdir(dir)).sort()).toEqual(['alive.json']);
    expect(existsSync(join(dir, 'alive.json'))).toBe(true);
  }, 60_000);
});
