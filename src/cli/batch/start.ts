import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { CandidateSpec } from '../../candidates/adapter.js';
import type { Settings } from '../../config.js';
import type { EvalCase } from '../../evalset/index.js';
import type { BatchArm, BatchInput, BatchResult } from '../../run/batchInput.js';
import { designToWire, untilDecidedDesign, type UntilDecided, type UntilDecidedInput } from '../../run/untilDecided.js';
import { baselineFirst } from '../../vocabulary/armOrder.js';
import { UsageError } from '../../errors.js';
import { createRoundsPrinter } from './roundsProgress.js';
import type { RunTemplate } from '../../run/runSpec.js';
import { selectionDigest } from '../../run/batchPlan.js';
import { saveCaseSet } from '../../run/caseFolder.js';
import { pinSources } from '../../run/pinSources.js';
import type { ChangedOnly } from '../../vocabulary/changedOnly.js';
import { makeBatchId, makeRunId, runStamp } from '../../run/runId.js';
import { batchDetails, batchSummaryLine } from '../../run/story.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../../temporal/names.js';
import { batchProgressQuery } from '../../workflows/definitions.js';
import { collectBatchReport, createProgressPrinter, followUntilClosed, type BatchExecution, type Followed, type FollowedKind, type ProgressAnswer } from './follow.js';
import type { InterruptMode } from './interrupts.js';
import type { CommandIo } from '../io.js';
import { createReconnectingCalls, type ReconnectingCalls } from './reconnects.js';
import type { EvalRuntime } from '../runtime.js';

export interface BatchRequest {
  /** The bank folders (or case folders) and ids the cases were selected from (shown with the batch; the cases themselves travel in the store). */
  paths: string[];
  only?: string[];
  /** The selected cases, already validated. */
  cases: EvalCase[];
  candidate: CandidateSpec;
  runsPerCase: number;
  parallelism: number;
  /** The arms of an A/B batch; each (case, attempt) runs once per arm. */
  arms?: BatchArm[];
  /** `--changed-only`: what picked `cases`, kept with the batch. */
  changedOnly?: ChangedOnly;
  /** `--until-decided` (two arms): rounds until each case is decided, within these limits; `runsPerCase` is then ignored. */
  untilDecided?: UntilDecided;
}

export interface ExecuteOptions {
  /** What the first Ctrl-C does (default: ask on a terminal, else detach). */
  onInterrupt?: InterruptMode;
}

/**
 * Starts one evalBatchWorkflow for the cases and follows it (one line per finished run) until
 * it closes, riding out Temporal outages; returns the runs as the store has them. Ctrl-C
 * detaches (the batch goes on in Temporal) or cancels it (runs still record and clean up; a
 * second Ctrl-C leaves at once), as `onInterrupt` says.
 */
export async function executeBatch(settings: Settings, runtime: EvalRuntime, request: BatchRequest, io: CommandIo, options: ExecuteOptions = {}): Promise<BatchExecution> {
  const stamp = await freshStamp(runtime, request);
  const batchId = makeBatchId(stamp, randomBytes(3).toString('hex'));
  const arms = request.arms ?? [];
  const adaptive = request.untilDecided ? untilDecidedInput(request.untilDecided, arms) : null;
  // An until-decided batch plans every run a case could need; its rounds start those still needed.
  const runsPerCase = request.untilDecided?.maxRunsPerCase ?? request.runsPerCase;
  const total = request.cases.length * runsPerCase * Math.max(1, arms.length);
  // The cases travel with the batch as they were validated here: no worker host needs the bank.
  const caseSet = await saveCaseSet(runtime.store, request.cases);
  const input: BatchInput = {
    batchId,
    stamp,
    selection: { paths: request.paths, ...(request.only?.length ? { only: request.only } : {}), runsPerCase, digest: selectionDigest(request.cases), caseSet, ...(request.changedOnly ? { changedOnly: request.changedOnly } : {}) },
    total: null,
    // Git URL sources pinned now: every host of the batch then tests these very commits.
    template: await pinSources(runTemplateOf(settings, request.candidate)),
    ...(arms.length > 0 ? { arms } : {}),
    parallelism: request.parallelism,
    summaries: { dir: settings.summariesDir, prices: settings.prices },
    offset: 0,
    counts: { finished: 0, passed: 0, failed: 0 },
    recent: [],
    ...(adaptive ? { untilDecided: adaptive.input } : {}),
  };
  const metadata = {
    staticSummary: batchSummaryLine({ cases: request.cases.length, runsPerCase, candidate: request.candidate, parallelism: request.parallelism, arms, ...(adaptive ? { label: 'until decided' } : {}) }),
    staticDetails: batchDetails(batchId, input.selection, settings.runsDir),
  };
  const intro = [
    `batch ${batchId}: ${total} run${total === 1 ? '' : 's'} of ${request.cases.length} case${request.cases.length === 1 ? '' : 's'} with candidate ${request.candidate.name}, parallelism ${request.parallelism}`,
    ...(arms.length > 0 ? [`arms, alternating per case: ${arms.map((a) => `${a.name} (${a.change})`).join(', ')}`] : []),
    ...(adaptive ? [adaptive.intro] : []),
  ];
  return startAndFollow(runtime, io, { workflowType: 'evalBatchWorkflow', batchId, args: [input], metadata, intro }, options, (calls) => {
    const printer = createProgressPrinter(io, adaptive ? createRoundsPrinter(io) : undefined);
    return {
      query: batchProgressQuery,
      printer,
      report: async (end) => {
        // A progress answer from before planning says 0 runs: the larger count is the batch's.
        if (!adaptive) return collectBatchReport(runtime.store, batchId, Math.max(total, end.total ?? 0), printer);
        const report = await collectBatchReport(runtime.store, batchId, null, printer);
        if (end.status !== 'completed') return report;
        const result = (await calls.call(() => runtime.temporal.client.workflow.getHandle(batchId).result())) as BatchResult;
        return { ...report, ...(result.rounds ? { rounds: result.rounds } : {}) };
      },
    };
  });
}

/** What an until-decided batch carries: the design, computed here once (a workflow would redo it on every replay), and A as `compare` reads it. */
function untilDecidedInput(limits: UntilDecided, arms: readonly BatchArm[]): { input: UntilDecidedInput; intro: string } {
  const [a, b] = baselineFirst(arms);
  if (!a || !b || arms.length !== 2) throw new UsageError(`--until-decided: expected exactly two --arm flags (A and B), found ${arms.length}`);
  const design = untilDecidedDesign(limits);
  const batchLimit = limits.maxRuns !== undefined ? `, at most ${limits.maxRuns} runs in all` : limits.budgetUsd !== undefined ? `, at most $${limits.budgetUsd}` : '';
  const intro =
    `until decided: rounds of one ${a.name} and one ${b.name} run per open case, at most ${limits.maxRunsPerCase} a side per case${batchLimit}; ` +
    `a case is decided once its e-value reaches ${Math.exp(design.logUpper).toFixed(1)} (α ${design.alpha}, docs/how-many-runs.md)`;
  return { input: { limits, design: designToWire(design), a: a.name, b: b.name, state: null }, intro };
}

/** One batch workflow to start, of either kind, and what is said once it started. */
export interface BatchStart {
  workflowType: 'evalBatchWorkflow' | 'editPredictionBatchWorkflow';
  batchId: string;
  args: unknown[];
  metadata?: { staticSummary: string; staticDetails: string };
  /** Lines said once the batch started, before its Web UI link. */
  intro: string[];
}

/**
 * The one start-and-follow path of both batch kinds: starts the workflow (riding out a
 * Temporal outage; a start whose answer was lost finds the batch started), says so with the
 * Web UI link and the no-worker hint, and follows it to its end or until the user detaches.
 */
export async function startAndFollow<P extends ProgressAnswer, R>(
  runtime: EvalRuntime,
  io: CommandIo,
  start: BatchStart,
  options: ExecuteOptions,
  kindOf: (calls: ReconnectingCalls) => FollowedKind<P, R>,
): Promise<Followed<R>> {
  const calls = createReconnectingCalls(runtime.temporal.address, runtime.temporal.client.connection, io);
  await calls.call(() => startBatch(runtime, start));
  for (const line of start.intro) io.err(line);
  if (runtime.temporal.uiUrl) io.err(`Web UI: ${runtime.temporal.uiUrl}/namespaces/${runtime.temporal.namespace}/workflows/${start.batchId}`);
  if (!runtime.workers) io.err(`no worker in this process: the batch runs when a worker polls task queue ${SHARED_TASK_QUEUE} (start one with \`evalflow worker\`)`);
  return followUntilClosed(runtime, start.batchId, io, { calls, ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}) }, kindOf(calls));
}

/** The supply side of every run of a batch, from the settings. */
export function runTemplateOf(settings: Settings, candidate: CandidateSpec): RunTemplate {
  return {
    candidate,
    examiner: settings.examiner,
    judge: settings.judge,
    project: settings.project,
    workflowDir: settings.workflowDir,
    runsDir: settings.runsDir,
    turnTimeoutS: settings.candidates[candidate.name]?.turnTimeoutS ?? settings.turnTimeoutS,
    recovery: settings.recovery,
    judging: settings.judging,
    ...(settings.viewerUrl ? { viewerUrl: settings.viewerUrl } : {}),
  };
}

/** Starting again after a lost answer finds the batch started: its id is ours alone. */
async function startBatch(runtime: EvalRuntime, start: BatchStart): Promise<void> {
  try {
    await runtime.temporal.client.workflow.start(start.workflowType, {
      ...start.metadata,
      workflowId: start.batchId,
      taskQueue: SHARED_TASK_QUEUE,
      args: start.args,
      typedSearchAttributes: [{ key: searchAttributes.batchId, value: start.batchId }],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * A stamp no earlier run of these cases and candidate used: run ids are workflow ids and
 * run folders, so a batch started within the same second as another must not reuse them.
 */
async function freshStamp(runtime: EvalRuntime, request: BatchRequest): Promise<string> {
  let at = Date.now();
  for (;;) {
    const stamp = runStamp(new Date(at));
    const first = request.cases[0];
    const arm = request.arms?.[0];
    const runsPerCase = request.untilDecided?.maxRunsPerCase ?? request.runsPerCase;
    const taken = first ? await runtime.store.getRun(makeRunId(first.id, arm?.candidate?.name ?? request.candidate.name, stamp, runsPerCase > 1 ? 1 : undefined, arm?.name)) : null;
    if (!taken) return stamp;
    at += 1_000;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
  }
}
