import { allHandlersFinished, ApplicationFailure, CancellationScope, condition, isCancellation, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { RunProgress } from '../run/progress.js';
import type { ReviewDecision } from '../vocabulary/reviewDecision.js';
import { reviewCommand, secondDecisionRefused, waitingDetails } from '../run/reviewText.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunRecordInput } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import { queueReviewSignal, reviewRunUpdate } from './definitions.js';
import { causeMessage, describeFailure } from './failureText.js';
import { upsertOutcomeAttributes } from './outcomeAttributes.js';
import { sharedProfile } from './profiles.js';
import type { RunDisplay } from './runDisplay.js';
import { type Host, hostStage } from './runHost.js';

const shared = proxyActivities<Activities>(sharedProfile);

/** Where a person's review of the run stands (`--review wait`). */
export interface ReviewState {
  /** The run has recorded needs_review and waits for the decision. */
  waiting: boolean;
  decision: ReviewDecision | null;
  /** How recording the decision ended: the outcome, or why it was refused. */
  settled: { outcome: RunOutcome } | { refused: string } | null;
}

/**
 * Takes a person's decision (the `reviewRun` update, or the `queueReview` signal) from the
 * run's start: the update answers with the run's outcome once the decision is recorded, and is
 * refused unless the run waits for one.
 */
export function acceptReview(runId: string, progress: RunProgress): ReviewState {
  const review: ReviewState = { waiting: false, decision: null, settled: null };
  setHandler(
    reviewRunUpdate,
    async (decision) => {
      review.decision = decision;
      await condition(() => review.settled !== null);
      if (review.settled && 'refused' in review.settled) throw ApplicationFailure.nonRetryable(review.settled.refused, 'ReviewError');
      return (review.settled as { outcome: RunOutcome }).outcome;
    },
    { validator: (decision) => validateDecision(runId, review, progress.stage, decision) },
  );
  // A queued decision has no caller to refuse: one the update would refuse is logged and dropped.
  setHandler(queueReviewSignal, (decision) => {
    try {
      validateDecision(runId, review, progress.stage, decision);
      review.decision = decision;
    } catch (err) {
      log.warn(`a queued decision was not taken: ${(err as Error).message}`);
    }
  });
  return review;
}

/**
 * `--review wait`: the run has recorded needs_review and now waits, durably and for as long
 * as it takes, for a person's decision (the `reviewRun` update); its current details in the
 * Web UI say so. The decision goes to the store on the shared queue first, so it survives a
 * host that is gone by then; then the host rewrites the run's files and row as completed. A
 * cancellation while waiting leaves the run needs_review, to be decided later from the store.
 */
export async function awaitReview(spec: RunSpec, host: Host, input: RunRecordInput, recorded: RunOutcome, review: ReviewState, display: Pick<RunDisplay, 'stage' | 'show'>): Promise<RunOutcome> {
  display.stage('review');
  upsertOutcomeAttributes(recorded);
  display.show(waitingDetails(spec.runId, input.verdict?.score.review_reasons ?? []));
  review.waiting = true;
  try {
    await condition(() => review.decision !== null);
  } catch (err) {
    if (!isCancellation(err)) throw err;
    review.waiting = false;
    display.show(`cancelled while waiting for a person's review: the run stays needs_review; decide later with ${reviewCommand(spec.runId)}`);
    return recorded;
  }
  review.waiting = false;
  const decision = review.decision;
  if (!decision) return recorded;
  let outcome = recorded;
  let details = `reviewed: ${decision.result} by ${decision.author}`;
  await CancellationScope.nonCancellable(async () => {
    try {
      outcome = await shared.recordReview({ runId: spec.runId, decision });
    } catch (err) {
      details = `a person's decision was refused: ${causeMessage(err)}`;
      review.settled = { refused: causeMessage(err) };
      return;
    }
    try {
      outcome = await hostStage(host, 'recordRun', {}, [input]);
    } catch (err) {
      // The decision is in the store; only the run directory's files could not be rewritten.
      details += `; review.md not rewritten: ${describeFailure(err)}`;
    }
    review.settled = { outcome };
  });
  display.show(details);
  await condition(allHandlersFinished);
  return outcome;
}

/** The update's validator: throws (so the update is refused, unrecorded) unless the run waits and has no decision yet. */
function validateDecision(runId: string, review: ReviewState, stage: string, decision: ReviewDecision): void {
  if (review.decision) throw new Error(secondDecisionRefused(runId, review.decision));
  if (!review.waiting) throw new Error(`run ${runId} is not waiting for a person's review (it is at stage ${stage}); decide once it waits for one, or once it has ended needs_review`);
  if (decision.result !== 'pass' && decision.result !== 'fail') throw new Error(`a decision's result must be pass or fail, found ${JSON.stringify(decision.result)}`);
  if (!decision.author || !decision.note) throw new Error('a decision needs its author and a note saying why');
}
