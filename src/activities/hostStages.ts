import { OtherHostError } from '../errors.js';
import { hostTaskQueue } from '../temporal/names.js';
import type { cleanupActivities } from './cleanup.js';
import type { prepareActivities } from './prepare.js';
import type { recordActivities } from './record.js';
import type { verifyActivities } from './verify.js';

/** The stages of a run that touch only its host's files and the store: short, idempotent, no model call. */
export type HostStages = Pick<
  ReturnType<typeof prepareActivities> & ReturnType<typeof verifyActivities> & ReturnType<typeof cleanupActivities> & ReturnType<typeof recordActivities>,
  'prepareRun' | 'setupSandbox' | 'verifyRun' | 'cleanupRun' | 'recordRun'
>;
export type HostStage = keyof HostStages;

/** What host stage `K` returns. */
export type HostStageResult<K extends HostStage> = Awaited<ReturnType<HostStages[K]>>;

/** One host stage for the run whose host queue is `queue`. */
export type HostStageRequest<K extends HostStage = HostStage> = { queue: string; stage: K; args: Parameters<HostStages[K]> };

export function hostStageActivities(hostId: string, stages: HostStages) {
  const here = hostTaskQueue(hostId);
  return {
    /**
     * A host stage run as a local activity, inside the workflow task of the worker that has
     * it: no round trip through the host's queue. Only on the run's own host; anywhere else
     * it refuses, and the workflow sends the stage to the host's queue.
     */
    async runHostStage<K extends HostStage>({ queue, stage, args }: HostStageRequest<K>): Promise<HostStageResult<K>> {
      if (queue !== here) throw new OtherHostError(`${stage} belongs to the run's host (${queue}); this worker serves ${here}`);
      return run(stages, stage, args);
    },

    /**
     * The first host stage of a run that has no host yet, as a local activity: it runs here,
     * and this worker's host becomes the run's (the claim and the stage in one step).
     */
    async claimHostStage<K extends HostStage>({ stage, args }: Omit<HostStageRequest<K>, 'queue'>): Promise<{ queue: string; result: HostStageResult<K> }> {
      return { queue: here, result: await run(stages, stage, args) };
    },
  };
}

function run<K extends HostStage>(stages: HostStages, stage: K, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> {
  const work = stages[stage] as (...input: Parameters<HostStages[K]>) => Promise<HostStageResult<K>>;
  return work(...args);
}
