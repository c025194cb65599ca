import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  isCancellation,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { BatchInput, BatchResult } from '../run/batchInput.js';
import type { BatchProgress } from '../run/progress.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { batchProgressQuery } from './definitions.js';
import { evalRunWorkflow } from './evalRunWorkflow.js';
import { sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);

/** Children planned and started per page; the batch continues as new between pages when its history grows. */
const PAGE_SIZE = 100;
const CONTINUE_AS_NEW_AFTER_EVENTS = 8_000;
/** Outcomes kept in the workflow for the progress query; the store keeps all of them. */
const RECENT_OUTCOMES = 200;

/**
 * Runs every (case, attempt) of a batch as a child evalRunWorkflow through a sliding window
 * of `parallelism`, answers a progress query, and continues as new between pages so batches
 * of thousands keep a small history.
 */
export async function evalBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  const counts = { ...input.counts };
  const running = new Set<string>();
  const recent: BatchProgress['outcomes'] = [...input.recent];
  let started = input.offset;
  setHandler(batchProgressQuery, (): BatchProgress => ({
    batchId: input.batchId,
    total: input.refs.length,
    started,
    finished: counts.finished,
    running: [...running],
    outcomes: recent,
  }));

  let offset = input.offset;
  try {
    while (offset < input.refs.length) {
      const page = input.refs.slice(offset, offset + (input.pageSize ?? PAGE_SIZE));
      const specs = await shared.planRuns({ batchId: input.batchId, stamp: input.stamp, refs: page, template: input.template });
      for (const spec of specs) {
        await condition(() => running.size < input.parallelism);
        const done = (outcome: RunOutcome) => {
          running.delete(spec.runId);
          counts.finished += 1;
          counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
          if (outcome.result === 'pass') counts.passed += 1;
          if (outcome.result === 'fail') counts.failed += 1;
          recent.push({ runId: outcome.runId, caseId: outcome.caseId, status: outcome.status, result: outcome.result, overall: outcome.overall });
          if (recent.length > RECENT_OUTCOMES) recent.shift();
        };
        const child = await startRun(spec, input.batchId);
        // Counted once started: a start cancelled with the batch must not hold up the drain below.
        running.add(spec.runId);
        started += 1;
        child.result().then(done, async (err: unknown) => {
          const outcome = failedOutcome(spec, err);
          // Every run records itself, even when cancelled; one that failed instead never did.
          if (!isRecordedCancellation(err) && patched('mark-unrecorded-runs')) {
            const error = `the run's workflow failed before recording its outcome: ${outcome.error ?? 'unknown error'}`;
            await CancellationScope.nonCancellable(() => shared.markRunFailed({ runId: spec.runId, status: outcome.status, error })).catch(() => undefined);
          }
          done(outcome);
        });
      }
      offset += page.length;
      const last = offset >= input.refs.length;
      const continuing = !last && workflowInfo().historyLength > (input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AFTER_EVENTS);
      // Drain before continuing as new (children of a closed run cannot report back) and at the
      // end; between pages the window keeps sliding.
      if (last || continuing || !patched('drain-only-before-continue-as-new')) {
        await condition(() => running.size === 0);
      }
      if (continuing) {
        await continueAsNew<typeof evalBatchWorkflow>({ ...input, offset, counts, recent });
      }
    }
  } catch (err) {
    // Cancelling the batch cancels its running children, which then record and clean up. The
    // batch ends only after them, so whoever waits on it (`evalflow run`) reads final runs.
    if (isCancellation(err) && patched('batch-waits-for-cancelled-runs')) {
      await CancellationScope.nonCancellable(() => condition(() => running.size === 0));
    }
    throw err;
  }
  return { batchId: input.batchId, total: input.refs.length, counts };
}

function startRun(spec: RunSpec, batchId: string) {
  return startChild(evalRunWorkflow, {
    workflowId: spec.runId,
    taskQueue: SHARED_TASK_QUEUE,
    args: [spec],
    // Cancelling the batch cancels its runs, which still record and clean up.
    parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    typedSearchAttributes: [
      { key: searchAttributes.caseId, value: spec.evalCase.id },
      { key: searchAttributes.candidate, value: spec.candidate.name },
      { key: searchAttributes.batchId, value: batchId },
      { key: searchAttributes.status, value: 'running' },
    ],
  });
}

/** evalRunWorkflow ends a cancelled run with this failure, after recording it. */
function isRecordedCancellation(err: unknown): boolean {
  return err instanceof ChildWorkflowFailure && err.cause instanceof ApplicationFailure && err.cause.type === 'RunCancelled';
}

function failedOutcome(spec: RunSpec, err: unknown): RunOutcome {
  const message = describeChildFailure(err);
  const cancelled = /cancel|terminat/i.test(message);
  return {
    runId: spec.runId,
    caseId: spec.evalCase.id,
    status: cancelled ? 'cancelled' : 'infra_error',
    result: null,
    overall: null,
    runDir: `${spec.runsDir}/${spec.runId}`,
    anomalies: [],
    error: message,
  };
}

/** The causes below the child failure, e.g. `recordRun failed: ENOENT: …` (not "Activity task failed"). */
function describeChildFailure(err: unknown): string {
  const parts: string[] = [];
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ChildWorkflowFailure && cause.cause) continue;
    parts.push(cause instanceof ActivityFailure ? `${cause.activityType} failed` : cause.message);
  }
  return parts.join(': ') || String(err);
}
