import { ActivityCancellationType, type ActivityOptions } from '@temporalio/workflow';

/**
 * Timeouts and retry policies per kind of work, declared where Temporal can see them.
 * Errors whose class is listed are never retried: a bad eval case or config will not fix
 * itself; LlmError is retried only when the activity marks it retryable (429, 5xx, timeouts).
 */
const NEVER_RETRY = ['FormatError', 'ConfigError', 'JudgeError', 'InternalError'];

const backoff = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' } as const;

/** Short bookkeeping on the shared queue (claiming a host, planning). */
export const sharedProfile: ActivityOptions = {
  startToCloseTimeout: '1m',
  retry: { ...backoff, maximumAttempts: 5, nonRetryableErrorTypes: NEVER_RETRY },
};

/** Sandbox and run-directory work on the host queue. The schedule-to-close bounds a host that died. */
export const hostProfile: ActivityOptions = {
  startToCloseTimeout: '30m',
  scheduleToCloseTimeout: '2h',
  heartbeatTimeout: '2m',
  retry: { ...backoff, maximumAttempts: 3, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError'] },
};

/** Examiner LLM calls: retried with backoff on 429/5xx. */
export const examinerProfile: ActivityOptions = {
  startToCloseTimeout: '5m',
  retry: { ...backoff, maximumAttempts: 6, nonRetryableErrorTypes: NEVER_RETRY },
};

/** Judge LLM calls: retried with backoff; a verdict that cannot be parsed is not retried. */
export const judgeProfile: ActivityOptions = {
  startToCloseTimeout: '10m',
  retry: { ...backoff, maximumAttempts: 6, nonRetryableErrorTypes: NEVER_RETRY },
};

/**
 * One candidate turn: long, heartbeating on every event. A candidate that fails its own turn
 * is reported as the turn's outcome, not thrown; what is thrown is ours (infra, or the builtin
 * agent's model endpoint) and retried after the sandbox is restored to the start of the turn.
 */
export function candidateProfile(turnTimeoutS: number): ActivityOptions {
  return {
    startToCloseTimeout: `${turnTimeoutS + 120}s`,
    // Bounds a host that died, as hostProfile does: its queue would hold the retry forever.
    // Never shorter than the three attempts the retry policy allows.
    scheduleToCloseTimeout: `${Math.max(2 * 3600, 3 * (turnTimeoutS + 120) + 300)}s`,
    heartbeatTimeout: '60s',
    // Cleanup must not start while the agent process still runs in the sandbox.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { ...backoff, maximumAttempts: 3, nonRetryableErrorTypes: [...NEVER_RETRY, 'SandboxError', 'CandidateSetupError'] },
  };
}

/**
 * Edit prediction: replaying an example in its repository's worktree (host queue). Heartbeats
 * every few seconds, so a dead worker is noticed in seconds and the example moves on.
 */
export const epLoadProfile: ActivityOptions = {
  ...hostProfile,
  heartbeatTimeout: '10s',
};

/**
 * Edit prediction: one model call, retried with backoff on 429/5xx (a 4xx, or an example that
 * cannot be predicted, is not). Heartbeats while waiting for the model, so a worker that dies
 * mid-call is noticed in seconds; the retry finds a prediction saved before the crash.
 */
export const epPredictProfile: ActivityOptions = {
  startToCloseTimeout: '5m',
  heartbeatTimeout: '10s',
  retry: { ...backoff, maximumAttempts: 6, nonRetryableErrorTypes: NEVER_RETRY },
};

/** Edit prediction: scoring from the store (pure CPU, usually milliseconds; it cannot heartbeat mid-metric). */
export const epScoreProfile: ActivityOptions = {
  startToCloseTimeout: '1m',
  retry: { ...backoff, maximumAttempts: 3, nonRetryableErrorTypes: NEVER_RETRY },
};
