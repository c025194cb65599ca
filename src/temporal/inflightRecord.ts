import type { ProcessOwner } from '../sandbox/agentProcesses.js';

/** What a running activity leaves on its host, so that the next worker there can fail it at once if this one dies (failover.ts reads it; activities/inflight.ts writes it). */
export interface InflightRecord {
  /** The activity attempt's task token, base64: failing by token touches only this attempt. */
  taskToken: string;
  activityType: string;
  workflowId: string | null;
  activityId: string;
  attempt: number;
  owner: ProcessOwner;
}

