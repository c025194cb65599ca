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
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { BatchCounts, BatchInput, BatchResult } from '../run/batchInput.js';
import type { BatchProgress } from '../run/progress.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import { batchPosition, runDetails, runSummary } from '../run/story.js';
import type { RoundsState, UntilDecidedInput } from '../run/untilDecided.js';
import type { BatchStatus } from '../store/index.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { viewerDetailsLine } from '../vocabulary/viewer.js';
import { decideRounds } from './decideRounds.js';
import { batchProgressQuery } from './definitions.js';
import { evalRunWorkflow } from './evalRunWorkflow.js';
import { localProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const local = proxyLocalActivities<Activities>(localProfile);

/** Runs planned and started per page; the batch continues as new between pages when its history grows. */
const PAGE_SIZE = 100;
const CONTINUE_AS_NEW_AFTER_EVENTS = 8_000;
/** Outcomes kept in the workflow for the progress query; the store keeps all of them. */
const RECENT_OUTCOMES = 200;
/** The batch row's counts are written at most this often while runs finish. */
const COUNTS_EVERY = '2s';

/**
 * Plans a batch (its row and its plan go to the store), then runs every planned (case,
 * attempt) as a child evalRunWorkflow through a sliding window of `parallelism`, a page of
 * the plan at a time. It answers a progress query, keeps its row's counts current, continues
 * as new between pages so batches of tens of thousands keep a small history, and writes its
 * final status itself, so the batch can be found and followed after the client is gone.
 */
export async function evalBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  // Planning and the batch row are short store writes: local activities of the worker running
  // the batch, with no round trip through a task queue. Batches started before keep the queue;
  // batches that start their runs together keep them local without asking the older patch.
  const together = patched('start-runs-together');
  const books = together || patched('batch-bookkeeping-locally') ? local : shared;
  const counts: BatchCounts = { ...input.counts };
  const running = new Set<string>();
  const recent: BatchProgress['outcomes'] = [...input.recent];
  let total = input.total;
  let started = input.offset;
  let rounds: RoundsState | null = input.untilDecided?.state ?? null;
  setHandler(batchProgressQuery, (): BatchProgress => ({
    batchId: input.batchId,
    total: total ?? 0,
    started,
    finished: counts.finished,
    running: [...running],
    outcomes: recent,
    ...(input.untilDecided && rounds ? { rounds: { design: input.untilDecided.design, state: rounds } } : {}),
  }));
  const summary = batchSummary(input);

  // The Web UI's current details: where the batch stands, after each start and each finish.
  const tell = () => setCurrentDetails(batchPosition(counts, total, running.size));

  let countsChanged = false;
  let closing = false;
  const writeCounts = async () => {
    while (!closing) {
      await condition(() => countsChanged || closing);
      if (closing) return;
      countsChanged = false;
      await books.updateBatchCounts({ batchId: input.batchId, counts: { ...counts } });
      await condition(() => closing, COUNTS_EVERY);
    }
  };

  const follow = (spec: RunSpec, child: Awaited<ReturnType<typeof startRun>>): Promise<RunOutcome> => {
    running.add(spec.runId);
    started += 1;
    const done = (outcome: RunOutcome): RunOutcome => {
      running.delete(spec.runId);
      count(counts, outcome);
      countsChanged = true;
      recent.push({ runId: outcome.runId, caseId: outcome.caseId, status: outcome.status, result: outcome.result, overall: outcome.overall });
      if (recent.length > RECENT_OUTCOMES) recent.shift();
      tell();
      return outcome;
    };
    return child.result().then(done, async (err: unknown) => {
      const outcome = failedOutcome(spec, err);
      // Every run records itself, even when cancelled; one that failed instead never did.
      if (!isRecordedCancellation(err)) {
        const error = `the run's workflow failed before recording its outcome: ${outcome.error ?? 'unknown error'}`;
        await CancellationScope.nonCancellable(() => books.markRunFailed({ runId: spec.runId, status: outcome.status, error })).catch(() => undefined);
      }
      return done(outcome);
    });
  };

  /** Starts the specs through the window of `parallelism`; resolves once all started, each one's outcome to come pushed to `outcomes`. */
  const startAll = async (specs: RunSpec[], outcomes: Promise<RunOutcome>[] = []): Promise<void> => {
    for (let next = 0; next < specs.length; ) {
      await condition(() => running.size < input.parallelism);
      // Every free slot's run is started in one workflow task, not one task per start.
      const group = specs.slice(next, next + (together ? input.parallelism - running.size : 1));
      next += group.length;
      const starts = await Promise.allSettled(group.map((spec) => startRun(spec, input)));
      for (const [index, start] of starts.entries()) {
        // Counted once started: a start cancelled with the batch must not hold up the drain below.
        if (start.status === 'fulfilled') outcomes.push(follow(group[index]!, start.value));
      }
      tell();
      const refused = starts.find((start) => start.status === 'rejected');
      if (refused) throw refused.reason;
    }
  };

  let offset = input.offset;
  try {
    const arms = input.arms ?? [];
    const { untilDecided } = input;
    let caseIds = untilDecided?.state?.decisions.map((d) => d.caseId) ?? [];
    if (total === null) {
      const planned = await books.planBatch({ batchId: input.batchId, selection: input.selection, arms: arms.map((a) => a.name), summary, ...(untilDecided ? { withCases: true } : {}) });
      total = planned.total;
      caseIds = planned.caseIds ?? [];
    }
    tell();
    // A cancelled batch stops writing counts; its close below writes the final ones.
    const counting = writeCounts().catch((err: unknown) => {
      if (!isCancellation(err)) throw err;
    });
    const carryOver = async (carried: Partial<BatchInput>): Promise<never> => {
      closing = true;
      await counting;
      await books.updateBatchCounts({ batchId: input.batchId, counts: { ...counts } });
      return continueAsNew<typeof evalBatchWorkflow>({ ...input, total, offset, counts, recent, ...carried });
    };
    if (untilDecided) {
      rounds = await decideRounds(input, untilDecided, caseIds, {
        books,
        runAll: async (specs) => {
          const outcomes: Promise<RunOutcome>[] = [];
          await startAll(specs, outcomes);
          return Promise.all(outcomes);
        },
        show: (state) => {
          rounds = state;
        },
        carryOver: (state) => carryOver({ untilDecided: { ...untilDecided, state } }),
        continueAfterEvents: input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AFTER_EVENTS,
      });
    }
    while (!untilDecided && offset < total) {
      const specs = await books.planRuns({ batchId: input.batchId, stamp: input.stamp, offset, limit: input.pageSize ?? PAGE_SIZE, template: input.template, arms });
      await startAll(specs);
      offset += specs.length;
      if (specs.length === 0) break;
      const last = offset >= total;
      const continuing = !last && workflowInfo().historyLength > (input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AFTER_EVENTS);
      // Drain before continuing as new (children of a closed run cannot report back) and at
      // the end; between pages the window keeps sliding.
      if (last || continuing) await condition(() => running.size === 0);
      if (continuing) await carryOver({});
    }
    closing = true;
    await counting;
  } catch (err) {
    closing = true;
    // Cancelling the batch cancels its running children, which then record and clean up. The
    // batch ends only after them, so whoever waits on it reads final runs.
    const cancelled = isCancellation(err);
    await CancellationScope.nonCancellable(async () => {
      if (cancelled) await condition(() => running.size === 0);
      await books.closeBatch({ batchId: input.batchId, status: cancelled ? 'cancelled' : 'failed', counts: { ...counts }, summary, ...decisionsOf(input, rounds) });
      await summarize(input);
    });
    throw err;
  }
  const status = finalStatus(counts);
  await books.closeBatch({ batchId: input.batchId, status, counts: { ...counts }, summary, ...decisionsOf(input, rounds) });
  setCurrentDetails(`${status === 'failed' ? 'FAILED: no run was judged · ' : ''}${batchPosition(counts, total, 0)}`);
  await summarize(input);
  return { batchId: input.batchId, total, counts, ...(rounds ? { rounds } : {}) };
}

/** What an until-decided batch's close stores: its rounds' decisions, so compare and the gate read the sequential test's labels. */
function decisionsOf(input: BatchInput, rounds: RoundsState | null): { decisions?: { untilDecided: Pick<UntilDecidedInput, 'design' | 'a' | 'b'>; state: RoundsState } } {
  const { untilDecided } = input;
  if (!untilDecided || !rounds) return {};
  return { decisions: { untilDecided: { design: untilDecided.design, a: untilDecided.a, b: untilDecided.b }, state: rounds } };
}

/** The batch's last step: summaries/ rebuilt from the store. A failure there is reported, not the batch's. */
async function summarize(input: BatchInput): Promise<void> {
  if (!input.summaries) return;
  await shared.summarizeBatch({ batchId: input.batchId, ...input.summaries }).catch(() => undefined);
}

function startRun(spec: RunSpec, input: BatchInput) {
  const batchId = input.batchId;
  // Since this patch a run starts with its arm as a search attribute and the viewer's link in its details.
  const armed = patched('run-arm-and-viewer-link');
  return startChild(evalRunWorkflow, {
    workflowId: spec.runId,
    taskQueue: SHARED_TASK_QUEUE,
    args: [spec],
    staticSummary: runSummary(spec, input.selection.runsPerCase),
    staticDetails: armed ? `${runDetails(spec)}${viewerDetailsLine(spec)}` : runDetails(spec),
    // Cancelling the batch cancels its runs, which still record and clean up.
    parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    typedSearchAttributes: [
      { key: searchAttributes.caseId, value: spec.evalCase.id },
      { key: searchAttributes.candidate, value: spec.candidate.name },
      { key: searchAttributes.batchId, value: batchId },
      { key: searchAttributes.status, value: 'running' },
      // Its first stage, so the run need not write it again.
      { key: searchAttributes.stage, value: 'prepare' },
      ...(armed && spec.arm ? [{ key: searchAttributes.arm, value: spec.arm }] : []),
    ],
  });
}

function count(counts: BatchCounts, outcome: RunOutcome): void {
  counts.finished += 1;
  counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
  if (outcome.result === 'pass') counts.passed += 1;
  if (outcome.result === 'fail') counts.failed += 1;
}

/** A batch that measured nothing (no run was judged, not even one left for a person) failed, whatever else it did. */
function finalStatus(counts: BatchCounts): BatchStatus {
  return (counts.completed ?? 0) + (counts.needs_review ?? 0) > 0 ? 'completed' : 'failed';
}

/** What the batch row says about the batch, for `evalflow batches` and `status`. */
function batchSummary(input: BatchInput): Record<string, unknown> {
  const { candidate } = input.template;
  return {
    candidate: candidate.name,
    adapter: candidate.adapter,
    ...(candidate.model ? { model: candidate.model } : {}),
    parallelism: input.parallelism,
    runs_per_case: input.selection.runsPerCase,
    paths: input.selection.paths,
    ...(input.selection.only ? { only: input.selection.only } : {}),
    ...(input.selection.changedOnly ? { changed_only: input.selection.changedOnly } : {}),
    project: input.template.project,
    workflow_dir: input.template.workflowDir,
    runs_dir: input.template.runsDir,
    stamp: input.stamp,
    ...(input.schedule ? { schedule: input.schedule } : {}),
    ...(input.template.workflowRev ? { workflow_rev: input.template.workflowRev } : {}),
    ...(input.arms ? { arms: input.arms.map((a) => ({ name: a.name, change: a.change })) } : {}),
    // Read by attach (completion by the runs started), compare and the gate (the test's labels).
    ...(input.untilDecided ? { until_decided: untilDecidedSummary(input.untilDecided) } : {}),
  };
}

function untilDecidedSummary({ limits, design, a, b }: UntilDecidedInput): Record<string, unknown> {
  return {
    a,
    b,
    max_runs_per_case: limits.maxRunsPerCase,
    ...(limits.maxRuns !== undefined ? { max_runs: limits.maxRuns } : {}),
    ...(limits.budgetUsd !== undefined ? { budget_usd: limits.budgetUsd } : {}),
    alpha: design.alpha,
  };
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
