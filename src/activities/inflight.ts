import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { ownerOfThisProcess } from '../sandbox/agentProcesses.js';
import type { InflightRecord } from '../temporal/inflightRecord.js';

/**
 * Notes the running activity in `dir` until `release` is called. A worker killed mid-activity
 * leaves the note behind: the next worker on this host fails that attempt by its task token
 * (a retryable failure), so Temporal retries it in a second instead of after the heartbeat
 * timeout. Outside an activity (unit tests) it does nothing.
 */
export function noteInflight(dir: string): () => void {
  let info;
  try {
    info = Context.current().info;
  } catch {
    return () => undefined;
  }
  // A local activity has no task token to fail: a dead worker's workflow task times out and runs it again.
  if (info.isLocal) return () => undefined;
  const record: InflightRecord = {
    taskToken: Buffer.from(info.taskToken).toString('base64'),
    activityType: info.activityType,
    workflowId: info.workflowExecution?.workflowId ?? null,
    activityId: info.activityId,
    attempt: info.attempt,
    owner: ownerOfThisProcess(),
  };
  const file = join(dir, `${randomUUID()}.json`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify(record));
  } catch {
    // Without the note a dead worker's attempt is retried after the heartbeat timeout instead.
    return () => undefined;
  }
  return () => rmSync(file, { force: true });
}
