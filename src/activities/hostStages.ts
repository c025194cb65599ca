import type { CandidateSpec } from '../candidates/adapter.js';
import { CannotRunHereError, NoFreeSlotError, OtherHostError } from '../errors.js';
import { candidateOf, comesBeforeTurns, runIdOf } from '../run/hostStageArgs.js';
import type { Store } from '../store/store.js';
import { hostTaskQueue } from '../temporal/names.js';
import type { cleanupActivities } from './cleanup.js';
import type { CandidateFactory, HostSlots } from './deps.js';
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

/** How a claim is kept: the host's slots, what it can run, and the store that records the host of each attempt. */
export interface Hosting {
  store: Store;
  now(): Date;
  slots?: HostSlots;
  candidates?: Pick<CandidateFactory, 'whyCannotRun'>;
}

export function hostStageActivities(hostId: string, stages: HostStages, hosting?: Hosting) {
  const here = hostTaskQueue(hostId);
  /**
   * Takes a slot here for the run (or refuses) and records this host as the one of its
   * attempt. A host that cannot start the run's candidate refuses before taking a slot.
   */
  const claim = async (runId: string, generation: number, where: string, candidate?: CandidateSpec) => {
    if (!hosting) return;
    const why = candidate ? await hosting.candidates?.whyCannotRun?.(candidate) : null;
    if (why) throw new CannotRunHereError(`host ${hostId} cannot take run ${runId} (${where}): ${why}`);
    if (hosting.slots && !hosting.slots.tryHold(runId)) throw new NoFreeSlotError(`${hostId} has no free slot for run ${runId} (${where})`);
    await hosting.store.saveRunHost({ run_id: runId, generation, host_id: hostId, claimed_at: hosting.now().toISOString() });
  };
  return {
    /**
     * Which host queue this worker serves; the run's sandbox work is then pinned to it. With
     * the run's `candidate`, a host that cannot start it refuses (the run then claims a host
     * on the slots queue). A run that lost its host (`generation` given) is claimed as on the
     * slots queue: it takes a slot here and this host is recorded as its attempt's, unless this
     * is the host it lost, come back (`lost`), which holds it already.
     */
    async claimHost(request: { runId?: string; candidate?: CandidateSpec; generation?: number; lost?: string } = {}): Promise<string> {
      if (request.runId !== undefined && request.generation !== undefined && request.lost !== here) {
        await claim(request.runId, request.generation, 'claimed after its host was lost', request.candidate);
        return here;
      }
      const why = request.candidate ? await hosting?.candidates?.whyCannotRun?.(request.candidate) : null;
      if (why) throw new CannotRunHereError(`host ${hostId} cannot take run ${request.runId ?? '?'}: ${why}`);
      return here;
    },

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
     * and this worker's host becomes the run's (the claim and the stage in one step). A host
     * with no free slot, draining, or unable to start the run's candidate refuses: the run
     * then claims through the slots queue.
     */
    async claimHostStage<K extends HostStage>({ stage, args }: Omit<HostStageRequest<K>, 'queue'>): Promise<{ queue: string; result: HostStageResult<K> }> {
      await claim(runIdOf(args), 0, 'claimed in its workflow task', comesBeforeTurns(stage) ? candidateOf(args) : undefined);
      return { queue: here, result: await run(stages, stage, args) };
    },

    /**
     * A run's claim on the slots queue, which a host polls only while it has a free slot and
     * does not drain: the run's host becomes this one. Refused (and retried, by whichever
     * host polls next) when a claim in a workflow task took the last slot meanwhile, or when
     * this host cannot start the run's `candidate` (absent: any host can take it).
     */
    async claimSlot({ runId, generation, candidate }: { runId: string; generation: number; candidate?: CandidateSpec }): Promise<string> {
      await claim(runId, generation, 'claimed on the slots queue', candidate);
      return here;
    },
  };
}

function run<K extends HostStage>(stages: HostStages, stage: K, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> {
  const work = stages[stage] as (...input: Parameters<HostStages[K]>) => Promise<HostStageResult<K>>;
  return work(...args);
}
