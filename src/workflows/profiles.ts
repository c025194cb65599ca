import { ActivityCancellationType, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import type { Recovery } from '../run/runSpec.js';
import { SLOTS_TASK_QUEUE } from '../temporal/names.js';

/**
 * Timeouts and retry policies per kind of work, declared where Temporal can see them.
 * Every activity heartbeats every 2 s on a timer, so with a 10 s heartbeat timeout a worker
 * killed mid-activity is noticed, and its work retried on another poller, in about 11 s.
 * Errors whose class is listed are never retried: a bad eval case or config will not fix
 * itself; LlmError is retried only when the activity marks it retryable (429, 5xx, timeouts),
 * which it does only after waiting out the run's outage window in-process.
 */
const NEVER_RETRY = ['FormatError', 'ConfigError', 'JudgeError', 'ReviewError', 'InternalError', 'CandidateSetupError'];

export const HEARTBEAT_TIMEOUT = '10s';

const backoff = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' } as const;

/** Short bookkeeping on the shared queue (claiming a host, planning, batch rows). */
export const sharedProfile: ActivityOptions = {
  startToCloseTimeout: '10m',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...backoff, maximumAttempts: 10, nonRetryableErrorTypes: NEVER_RETRY },
};

/** Bookkeeping short and idempotent enough to run inside the workflow task of the worker that has it. */
export const localProfile: LocalActivityOptions = {
  startToCloseTimeout: '1m',
  // A host that cannot start the run's candidate, or has no free slot for a run that lost its host, refuses its claim at once: the run claims on the slots queue.
  retry: { ...backoff, maximumAttempts: 10, nonRetryableErrorTypes: [...NEVER_RETRY, 'CannotRunHereError', 'NoFreeSlotError'] },
};

/**
 * Sandbox and run-directory work on a host queue. When the host has had no worker for the
 * run's `hostLostAfterS`, the attempt fails with a schedule-to-start timeout and the run
 * workflow moves the run to a live host.
 */
export function hostProfile(recovery: Recovery): ActivityOptions {
  return {
    startToCloseTimeout: '30m',
    scheduleToStartTimeout: `${recovery.hostLostAfterS}s`,
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    retry: { ...backoff, maximumAttempts: 5, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError'] },
  };
}

/**
 * A host stage run inside the workflow task of the run's own host (a local activity): as
 * patient as on the host's queue. It cannot heartbeat; the worker keeps its workflow task
 * alive instead, and a worker that dies mid-stage is noticed when that task times out (10 s),
 * when the stage runs again. On another host it refuses at once (OtherHostError), and so
 * does a claim by a host that is full or cannot start the run's candidate.
 */
export const hostLocalProfile: LocalActivityOptions = {
  startToCloseTimeout: '30m',
  retry: { ...backoff, maximumAttempts: 5, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError', 'OtherHostError', 'NoFreeSlotError', 'CannotRunHereError'] },
};

/**
 * A run's claim on the slots queue: it waits there, as long as it takes, until a host with a
 * free slot polls (no schedule-to-start timeout); a host that lost the race for its last slot,
 * or cannot start the run's candidate, refuses and the claim is retried (by whichever host
 * polls next).
 */
export const slotProfile: ActivityOptions = {
  taskQueue: SLOTS_TASK_QUEUE,
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 1.5, maximumInterval: '10s', nonRetryableErrorTypes: NEVER_RETRY },
};

/** Examiner and judge model calls on the shared queue: outages are waited out inside the call. */
export const modelProfile: ActivityOptions = {
  startToCloseTimeout: '2h',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...backoff, maximumAttempts: 10, nonRetryableErrorTypes: NEVER_RETRY },
};

/**
 * One candidate turn: long, heartbeating. A candidate that fails its own turn is reported as
 * the turn's outcome, not thrown; what is thrown is ours (infra, or the builtin agent's model
 * endpoint past its outage window) and retried after the sandbox is restored to the start of
 * the turn.
 */
export function candidateProfile(turnTimeoutS: number, recovery: Recovery): ActivityOptions {
  return {
    ...hostProfile(recovery),
    // The turn's own timeout kills the agent; this bounds our bookkeeping around it, plus waits for the model.
    startToCloseTimeout: `${turnTimeoutS + recovery.modelOutageS + 300}s`,
    // Cleanup must not start while the agent process still runs in the sandbox.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { ...backoff, maximumAttempts: 5, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError'] },
  };
}

/**
 * Edit prediction: replaying an example in its repository's worktree (host queue), noticed in
 * seconds when its worker dies.
 */
export const epLoadProfile: ActivityOptions = {
  startToCloseTimeout: '30m',
  scheduleToCloseTimeout: '2h',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...backoff, maximumAttempts: 3, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError'] },
};

/**
 * Edit prediction: one model call, retried with backoff on 429/5xx (a 4xx, or an example that
 * cannot be predicted, is not). The retry finds a prediction saved before a crash.
 */
export const epPredictProfile: ActivityOptions = {
  startToCloseTimeout: '5m',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...backoff, maximumAttempts: 6, nonRetryableErrorTypes: NEVER_RETRY },
};

/** Edit prediction: scoring from the store (CPU, usually milliseconds). */
export const epScoreProfile: ActivityOptions = {
  startToCloseTimeout: '1m',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...backoff, maximumAttempts: 3, nonRetryableErrorTypes: NEVER_RETRY },
};
