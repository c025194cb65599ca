import { hostname } from 'node:os';
import type { Client } from '@temporalio/client';
import { SHARED_TASK_QUEUE } from '../../temporal/names.js';

/** Workers seen polling the shared queue, by their identity (`pid@host`, the SDK's default). */
export interface BatchWorkers {
  /** Pids of live workers on this host. */
  here: number[];
  /** Identities of workers on other hosts that polled within the last few minutes. */
  elsewhere: string[];
}

/** The server lists a poller for minutes after its worker died; its last poll can be a minute old while it lives. */
const REMOTE_POLLER_FRESH_S = 5 * 60;
const WORKFLOW_TASK_QUEUE = 1;

/**
 * Who can run a batch's workflow tasks now. The server keeps listing a killed worker for
 * minutes, so a poller from this host counts only while its process lives.
 */
export async function batchWorkers(client: Client): Promise<BatchWorkers> {
  const answer = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: SHARED_TASK_QUEUE },
    taskQueueType: WORKFLOW_TASK_QUEUE,
  });
  const here = new Set<number>();
  const elsewhere = new Set<string>();
  const now = Date.now() / 1000;
  for (const poller of answer.pollers ?? []) {
    const identity = poller.identity ?? '';
    const at = identity.lastIndexOf('@');
    const pid = Number(identity.slice(0, at));
    if (at > 0 && identity.slice(at + 1) === hostname() && Number.isInteger(pid)) {
      if (isAlive(pid)) here.add(pid);
    } else if (now - Number(poller.lastAccessTime?.seconds ?? 0) < REMOTE_POLLER_FRESH_S) {
      elsewhere.add(identity);
    }
  }
  return { here: [...here], elsewhere: [...elsewhere] };
}

export function hasWorkers(workers: BatchWorkers): boolean {
  return workers.here.length + workers.elsewhere.length > 0;
}

/** Whether a process of this host lives (a zombie counts until reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
