import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { EpBatchOutcome } from '../editprediction/epBatch.js';
import type { BatchProgress, RunProgress } from '../run/progress.js';
import type { ReviewDecision } from '../vocabulary/reviewDecision.js';
import type { RunOutcome } from '../run/runOutcome.js';

/**
 * The messages of evalflow's workflows (queries, updates), shared by the workflows and the
 * CLI. Task queue and search-attribute names live in `temporal/names.ts`.
 */
export const runProgressQuery = defineQuery<RunProgress>('runProgress');
export const batchProgressQuery = defineQuery<BatchProgress>('batchProgress');

/**
 * A person's decision to a run waiting for one (`--review wait`); answers with the run's
 * outcome once the decision is recorded. Its validator refuses a run that does not wait, and
 * a second decision, before anything is written to the history.
 */
export const reviewRunUpdate = defineUpdate<RunOutcome, [ReviewDecision]>('reviewRun');

/**
 * The same decision, queued: `evalflow review` sends it when no worker takes the update in
 * time. A signal is written to the run's history at once, so it survives a server restart
 * and is taken when a worker runs again (an update not yet taken by a worker is not).
 */
export const queueReviewSignal = defineSignal<[ReviewDecision]>('queueReview');

/** Where an edit-prediction batch stands (`evalflow ep` prints its outcomes as they come). */
export interface EpBatchProgress {
  batchId: string;
  total: number;
  finished: number;
  failed: number;
  /** Names of the examples being worked on. */
  running: string[];
  /** Finished examples in finishing order (the most recent few hundred). */
  outcomes: EpBatchOutcome[];
}

export const epBatchProgressQuery = defineQuery<EpBatchProgress>('epBatchProgress');
