import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { isEvalflowError } from '../errors.js';
import { cleanupActivities } from './cleanup.js';
import type { ActivityDeps } from './deps.js';
import { candidateTurnActivities } from './candidateTurn.js';
import { editPredictionActivities } from './editPrediction.js';
import { epBatchRowActivities } from './epBatchRows.js';
import { hostStageActivities } from './hostStages.js';
import { examinerActivities } from './examiner.js';
import { planActivities } from './plan.js';
import { prepareActivities } from './prepare.js';
import { judgeActivities } from './judge.js';
import { recordActivities } from './record.js';
import { rejudgeActivities } from './rejudge.js';
import { summarizeActivities } from './summarize.js';
import { reviewActivities } from './review.js';
import { scheduleActivities } from './schedule.js';
import { join } from 'node:path';
import { noteInflight } from './inflight.js';
import { heartbeatWhile } from './temporalContext.js';
import { verifyActivities } from './verify.js';

export type { ActivityDeps, CandidateFactory, HostSlots } from './deps.js';
export type { CandidateTurnOutput } from './candidateTurn.js';
export type { ExaminerTurnOutput } from './examiner.js';
export type { EpBatchClose } from './epBatchRows.js';
export type { EpExampleRef, EpLoadOutput, EpPredictOutput, EpScoreOutput } from './editPrediction.js';
export type { CleanupReport } from './cleanup.js';
export type { HostStage, HostStageRequest, HostStageResult, HostStages } from './hostStages.js';
export type { JudgeOutput, JudgeRequest } from './judge.js';
export type { PreparedRun, SetupOutcome } from './prepare.js';
export type { RejudgeInput } from './rejudge.js';
export type { PreparedScheduledBatch } from './schedule.js';

/**
 * Every activity of evalflow, built from injected dependencies. Each is a thin stage over the
 * domain folders. Every one heartbeats on a timer while it runs (model calls included), so a
 * worker that dies is noticed within the heartbeat timeout and its work retried in seconds.
 * Errors of the evalflow hierarchy cross Temporal typed by class name and marked
 * non-retryable unless the error says a retry could help.
 */
export function createActivities(deps: ActivityDeps) {
  const activities = {
    ...planActivities(deps),
    ...prepareActivities(deps),
    ...examinerActivities(deps),
    ...candidateTurnActivities(deps),
    ...verifyActivities(deps),
    ...judgeActivities(deps),
    ...cleanupActivities(deps),
    ...recordActivities(deps),
    ...rejudgeActivities(deps),
    ...summarizeActivities(deps),
    ...reviewActivities(deps),
    ...scheduleActivities(deps),
    ...editPredictionActivities(deps),
    ...epBatchRowActivities(deps),
  };
  const { recordRun } = activities;
  // A run holds its slot on this host until its record is written here.
  activities.recordRun = async (input) => {
    try {
      return await recordRun(input);
    } finally {
      deps.slots?.release(input.spec.runId);
    }
  };
  return wrapActivities({ ...activities, ...hostStageActivities(deps.hostId, activities, deps) }, inflightDir(deps.sandboxRoot));
}

export type Activities = ReturnType<typeof createActivities>;

/** Where running activities leave their notes on this host (see `noteInflight`). */
export function inflightDir(sandboxRoot: string): string {
  return join(sandboxRoot, '.inflight');
}

function wrapActivities<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T, inflight: string): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (...args: never[]) => {
      const release = noteInflight(inflight);
      try {
        return await heartbeatWhile(() => fn(...args));
      } catch (err) {
        throw toFailure(err);
      } finally {
        release();
      }
    };
  }
  return wrapped as T;
}

/**
 * After a cancellation request, whatever the work threw becomes the cancellation (so the
 * workflow sees a cancelled activity, not a failed one to retry); an EvalflowError becomes an
 * ApplicationFailure whose type is the class name (the wire contract).
 */
export function toFailure(err: unknown): unknown {
  const reason = cancellationReason();
  if (reason) return reason;
  if (!isEvalflowError(err)) return err;
  return ApplicationFailure.create({
    message: err.message,
    type: err.constructor.name,
    nonRetryable: !err.retryable,
    cause: err,
  });
}

function cancellationReason(): CancelledFailure | undefined {
  try {
    const signal = Context.current().cancellationSignal;
    if (!signal.aborted) return undefined;
    return signal.reason instanceof CancelledFailure ? signal.reason : new CancelledFailure(String(signal.reason ?? 'cancelled'));
  } catch {
    return undefined; // not inside an activity
  }
}
