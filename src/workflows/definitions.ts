import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { defineQuery } from '@temporalio/workflow';
import type { EpBatchOutcome } from '../editprediction/epBatch.js';

/**
 * Names shared by workflows, the worker and the CLI: task queues, queries and search
 * attributes. Defined once here so nothing is spelled twice.
 */
export const SHARED_TASK_QUEUE = 'evalflow';

/** The per-host queue for everything that touches a run's sandbox or run directory. */
export function hostTaskQueue(hostId: string): string {
  return `${SHARED_TASK_QUEUE}@${hostId}`;
}

/**
 * Custom search attributes; they fit the SQL visibility slots of the dev server
 * (10 Keyword, 3 Double).
 */
export const searchAttributes = {
  caseId: defineSearchAttributeKey('EvalCase', SearchAttributeType.KEYWORD),
  candidate: defineSearchAttributeKey('EvalCandidate', SearchAttributeType.KEYWORD),
  batchId: defineSearchAttributeKey('EvalBatch', SearchAttributeType.KEYWORD),
  stage: defineSearchAttributeKey('EvalStage', SearchAttributeType.KEYWORD),
  status: defineSearchAttributeKey('EvalStatus', SearchAttributeType.KEYWORD),
  result: defineSearchAttributeKey('EvalResult', SearchAttributeType.KEYWORD),
  workflowRev: defineSearchAttributeKey('EvalWorkflowRev', SearchAttributeType.KEYWORD),
  overall: defineSearchAttributeKey('EvalOverall', SearchAttributeType.DOUBLE),
} as const;

export const allSearchAttributeKeys = Object.values(searchAttributes);

export interface RunProgress {
  runId: string;
  stage: string;
  turn: number;
  maxTurns: number;
}

export interface BatchProgress {
  batchId: string;
  total: number;
  started: number;
  finished: number;
  running: string[];
  /** Finished runs with their status and result, in finishing order. */
  outcomes: { runId: string; caseId: string; status: string; result: string | null; overall: number | null }[];
}

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
