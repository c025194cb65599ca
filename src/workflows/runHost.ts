import { type ActivityInterfaceFor, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities, HostStage, HostStageResult, HostStages } from '../activities/index.js';
import { candidateOf, comesBeforeTurns, runIdOf } from '../run/hostStageArgs.js';
import type { CandidateSpec } from '../run/runSpec.js';
import { hostLocalProfile, localProfile, sharedProfile, slotProfile } from './profiles.js';
import { runPatch } from './runPatches.js';
import { asStageFailure, isClaimRefused, isOtherHost } from './stageFailures.js';

const shared = proxyActivities<Activities>(sharedProfile);
const local = proxyLocalActivities<Activities>(localProfile);
const hostLocal = proxyLocalActivities<Activities>(hostLocalProfile);
const slots = proxyActivities<Activities>(slotProfile);

/** The activities of one host: its queue, with the run's timeouts. */
export interface Host {
  /** Null until the run's first host stage claims the host of the worker running it (nothing is queued before). */
  queue: string | null;
  run: ActivityInterfaceFor<Activities>;
  candidate: ActivityInterfaceFor<Activities>;
  /** Host stages are tried inside the workflow task first (until a worker that is not the host refuses one). */
  here: boolean;
  /** Makes `queue` the run's host, once its first host stage has claimed it. */
  claim(queue: string): void;
}

/** The attempt a host is claimed for: a host that cannot start its candidate refuses it. */
export interface ClaimFor {
  runId: string;
  candidate: CandidateSpec;
  generation: number;
  /** The queue of the host the run lost: that host, come back, holds the run already. */
  lost: string;
}

/**
 * The host is claimed by the worker that runs the workflow task: a local activity, no round
 * trip through a task queue. Runs started before this change keep the queued activity. Runs
 * started with fewer writes claim locally without asking the older patch (each patch asked
 * is a marker and a search attribute write). A run that lost its host takes a slot on the
 * claiming host and records it as its attempt's host. When that worker's host cannot start the
 * run's candidate, or has no free slot, the run claims a host through the slots queue.
 */
export async function claimHost(fewerWrites: boolean, run?: ClaimFor): Promise<string> {
  const request = run ? { runId: run.runId, candidate: run.candidate, generation: run.generation, lost: run.lost } : {};
  try {
    return await (fewerWrites || patched(runPatch.claimHostLocally) ? local.claimHost(request) : shared.claimHost(request));
  } catch (err) {
    if (!run || !isClaimRefused(err)) throw err;
    return slots.claimSlot({ runId: run.runId, generation: run.generation, candidate: run.candidate });
  }
}

/**
 * A stage on the run's host: inside this workflow task (a local activity, no round trip
 * through the host's queue) while the worker running it is that host, else on the host's
 * queue. A worker that is not the host refuses at once, and the run stops asking. A run
 * with no host yet has its first host stage run here, and this worker's host becomes its own,
 * unless it has no free slot or cannot start the run's candidate: then the run claims a host
 * through the slots queue (one that can start the candidate, when the stage comes before the
 * turns).
 */
export async function hostStage<K extends HostStage>(host: Host, stage: K, options: { summary?: string }, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> {
  if (host.queue === null) {
    try {
      const claimed = await hostLocal.claimHostStage.executeWithOptions(options, [{ stage, args }]);
      host.claim(claimed.queue);
      return claimed.result as HostStageResult<K>;
    } catch (err) {
      if (!isClaimRefused(err)) throw asStageFailure(stage, err);
      // This worker's host is full, drains or lacks the candidate: the run waits on the slots queue for a host with a free slot.
      const candidate = comesBeforeTurns(stage) ? candidateOf(args) : undefined;
      host.claim(await slots.claimSlot({ runId: runIdOf(args), generation: 0, ...(candidate ? { candidate } : {}) }));
    }
  }
  // Claimed above if it had no host yet (TypeScript does not see `claim` set it).
  const queue = host.queue as string;
  if (host.here) {
    try {
      return (await hostLocal.runHostStage.executeWithOptions(options, [{ queue, stage, args }])) as HostStageResult<K>;
    } catch (err) {
      if (!isOtherHost(err)) throw asStageFailure(stage, err);
      host.here = false;
    }
  }
  const queued = host.run[stage] as unknown as { executeWithOptions(options: { summary?: string }, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> };
  return queued.executeWithOptions(options, args);
}

