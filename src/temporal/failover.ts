import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ActivityNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure, NamespaceNotFoundError } from '@temporalio/common';
import type { InflightRecord } from './inflightRecord.js';
import { isOwnerAlive } from '../sandbox/agentProcesses.js';

/**
 * At worker start: every activity attempt a dead worker of this host left noted in `dir` is
 * failed now, retryably, so Temporal retries it within its backoff (a second) rather than
 * after the heartbeat timeout. Attempts that already ended are skipped. Returns what was
 * failed.
 */
export async function failActivitiesOfDeadWorkers(dir: string, client: Client): Promise<InflightRecord[]> {
  if (!existsSync(dir)) return [];
  const failed: InflightRecord[] = [];
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.json')) continue;
    const file = join(dir, name);
    let record: InflightRecord;
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as InflightRecord;
    } catch {
      await rm(file, { force: true });
      continue;
    }
    if (isOwnerAlive(record.owner)) continue;
    try {
      await client.activity.fail(
        Buffer.from(record.taskToken, 'base64'),
        ApplicationFailure.create({
          message: `the worker running ${record.activityType} (attempt ${record.attempt}) died; retried by the next worker on its host`,
          type: 'WorkerLost',
          nonRetryable: false,
          // Its processes are dead already (the sweep ran first): no reason to wait out a backoff.
          nextRetryDelay: '100ms',
        }),
      );
      failed.push(record);
    } catch (err) {
      // Already retried after its heartbeat timeout, or its workflow ended, or the record is of a
      // server that is gone (a dev server since stopped: its namespace is unknown here): nothing to do.
      if (!(err instanceof ActivityNotFoundError) && !(err instanceof NamespaceNotFoundError)) throw err;
    }
    await rm(file, { force: true });
  }
  // Their workflows' next tasks would wait on the dead worker's sticky queue for seconds first.
  for (const workflowId of new Set(failed.map((record) => record.workflowId).filter((id): id is string => id !== null))) {
    await client.workflowService.resetStickyTaskQueue({ namespace: client.options.namespace, execution: { workflowId } }).catch(() => undefined);
  }
  return failed;
}
