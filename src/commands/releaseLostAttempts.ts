import { hostname } from 'node:os';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { isAlive } from './batchWorkers.js';
import type { CommandIo } from './io.js';

const { PendingActivityState } = proto.temporal.api.enums.v1;

/** A batch's runs open at once: more are listed page by page. */
const PAGE_SIZE = 100;

/**
 * Fails the activity attempts of a batch that a worker of this host held when its process
 * died (kill -9, a crash, a closed laptop lid), so Temporal retries them now instead of after
 * their heartbeat or start-to-close timeout: a minute for a candidate turn, up to ten for a
 * judge call. A retried candidate turn starts from the sandbox restored to the start of the
 * turn, as after any lost attempt. Only attempts whose worker identity (`pid@host`, the SDK's
 * default) names this host and a process that is gone are touched. Returns what was released,
 * as `workflowId: activityType`.
 */
export async function releaseLostAttempts(client: Client, batchId: string): Promise<string[]> {
  const { namespace } = client.options;
  const released: string[] = [];
  const open = client.workflow.list({ query: `EvalBatch = "${batchId}" AND ExecutionStatus = "Running"`, pageSize: PAGE_SIZE });
  for await (const workflow of open) {
    const execution = { workflowId: workflow.workflowId, runId: workflow.runId };
    const described = await client.workflowService.describeWorkflowExecution({ namespace, execution });
    for (const activity of described.pendingActivities ?? []) {
      if (!activity.activityId || !heldByDeadLocalWorker(activity.lastWorkerIdentity ?? '')) continue;
      const lost = `its worker ${activity.lastWorkerIdentity} is gone`;
      const by = { namespace, workflowId: execution.workflowId, runId: execution.runId, activityId: activity.activityId, identity: `${process.pid}@${hostname()}` };
      try {
        if (activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED) {
          await client.workflowService.respondActivityTaskFailedById({ ...by, failure: { message: lost, source: 'evalflow', applicationFailureInfo: { type: 'WorkerLost', nonRetryable: false } } });
        } else if (activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED) {
          await client.workflowService.respondActivityTaskCanceledById(by);
        } else {
          continue;
        }
        released.push(`${execution.workflowId}: ${activity.activityType?.name ?? activity.activityId}`);
      } catch {
        // It moved on meanwhile (its timeout fired, or it was retried): nothing to release.
      }
    }
  }
  return released;
}

/** `released 2 attempts held by a worker that is gone: run-x: candidateTurn, …` */
export function sayReleased(released: string[], io: CommandIo): void {
  if (released.length === 0) return;
  io.err(`released ${released.length} attempt${released.length === 1 ? '' : 's'} held by a worker that is gone: ${released.join(', ')}`);
}

function heldByDeadLocalWorker(identity: string): boolean {
  const at = identity.lastIndexOf('@');
  const pid = Number(identity.slice(0, at));
  return at > 0 && identity.slice(at + 1) === hostname() && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
}
