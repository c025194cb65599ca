import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Task queue and search-attribute names, spelled once. A leaf module: the workflows, the
 * activities, the worker and the CLI all import it, and it imports nothing of theirs.
 */
export const SHARED_TASK_QUEUE = 'evalflow';

/**
 * Where a run waits for a host with a free slot when the worker running its workflow task
 * has none (or drains): each host polls it only while one of its slots is free.
 */
export const SLOTS_TASK_QUEUE = 'evalflow.slots';

/** The per-host queue for everything that touches a run's sandbox or run directory. */
export function hostTaskQueue(hostId: string): string {
  return `${SHARED_TASK_QUEUE}@${hostId}`;
}

/** The host id back from a host queue name, or null for another queue. */
export function hostOfQueue(queue: string): string | null {
  return queue.startsWith(`${SHARED_TASK_QUEUE}@`) ? queue.slice(SHARED_TASK_QUEUE.length + 1) : null;
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
  /** The A/B arm of a run in a batch with arms. */
  arm: defineSearchAttributeKey('EvalArm', SearchAttributeType.KEYWORD),
} as const;

export const allSearchAttributeKeys = Object.values(searchAttributes);
