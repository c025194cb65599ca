// The naive Temporal baseline of the orchestration benchmark: one workflow per run, one
// activity per stage, default options everywhere.
import { proxyActivities } from '@temporalio/workflow';

const { stage } = proxyActivities<{ stage(index: number): Promise<void> }>({ startToCloseTimeout: '1m' });

export async function naiveRunWorkflow(stages: number): Promise<void> {
  for (let i = 0; i < stages; i++) await stage(i);
}
