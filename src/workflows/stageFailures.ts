import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { HostStage } from '../activities/index.js';

/** A host stage refused by a worker that is not the run's host (a local activity's failure comes unwrapped). */
export function isOtherHost(err: unknown): boolean {
  return err instanceof ApplicationFailure && err.type === 'OtherHostError';
}

/** A claim refused by a worker whose slots are all held, which drains, or which cannot start the run's candidate. */
export function isClaimRefused(err: unknown): boolean {
  // A queued claim's failure comes wrapped, a local activity's unwrapped.
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure && (failure.type === 'NoFreeSlotError' || failure.type === 'CannotRunHereError');
}

/**
 * A local activity's failure, wrapped as a queued activity's is, so that a stage's failure
 * reads the same wherever it ran (`prepareRun failed: SandboxError: …`).
 */
export function asStageFailure(stage: HostStage, err: unknown): unknown {
  return err instanceof ApplicationFailure || err instanceof TimeoutFailure ? new ActivityFailure('Activity task failed', stage, undefined, undefined, undefined, err) : err;
}

/** A host-queue activity that no worker picked up within the run's `hostLostAfterS`. */
export function isHostLost(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START;
}
