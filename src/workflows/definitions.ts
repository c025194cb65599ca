import { defineQuery } from '@temporalio/workflow';
import type { EpBatchOutcome } from '../editprediction/epBatch.js';
import type { BatchProgress, RunProgress } from '../run/progress.js';

/**
 * The messages of evalflow's workflows (queries), shared by the workflows and the CLI. Task
 * queue and search-attribute names live in `temporal/names.ts`.
 */
export const runProgressQuery = defineQuery<RunProgress>('runProgress');
export const batchProgressQuery = defineQuery<BatchProgress>('batchProgress');

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
