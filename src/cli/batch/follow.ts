import { setTimeout as sleep } from 'node:timers/promises';
import { ActivityFailure, ChildWorkflowFailure, isGrpcServiceError, WorkflowFailedError, type QueryDefinition, type WorkflowHandle } from '@temporalio/client';
import type { BatchProgress } from '../../run/progress.js';
import type { RoundsState } from '../../run/untilDecided.js';
import { isUnfinished } from '../../vocabulary/runStatus.js';
import type { Run, Store } from '../../store/index.js';
import type { TemporalHandle } from '../../temporal/connection.js';
import { SHARED_TASK_QUEUE } from '../../temporal/names.js';
import { batchProgressQuery } from '../../workflows/definitions.js';
import type { CommandIo } from '../io.js';
import { EXIT } from '../exitCodes.js';
import { handleInterrupts, type InterruptMode } from './interrupts.js';
import type { ReconnectingCalls } from './reconnects.js';
import type { EvalRuntime } from '../runtime.js';
import { formatRunProblems, formatRunTable, formatUncontained } from '../output/runTable.js';

/** How a followed batch ended: closed in Temporal, or left running because the user detached. */
export type FollowEnd =
  | { closed: true; status: ClosedStatus; failure: string | null; total: number | null }
  | { closed: false; total: number | null };

export type ClosedStatus = 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed_out';

/** What a followed batch says while it runs: its finished items, and once that no worker answers. */
export interface ProgressLines<P> {
  outcomes(progress: P): void;
  noWorker(batchId: string): void;
}

/** Where a batch of either kind stands, as its progress query answers. */
export interface ProgressAnswer {
  total: number | null;
}

export interface FollowContext<P extends ProgressAnswer = BatchProgress> {
  temporal: TemporalHandle;
  calls: ReconnectingCalls;
  /** The batch kind's progress query (eval batches: batchProgressQuery). */
  query: QueryDefinition<P>;
  printer: ProgressLines<P>;
  /** Aborted to stop following: the batch goes on without us. */
  signal?: AbortSignal;
  /** Whether a worker runs in this process; without one, a batch no worker answers for is said once. */
  localWorker: boolean;
}

/** A batch followed to its end with the report its kind reads then, or left running in Temporal (the user detached). */
export type Followed<R> = { detached: false; report: R; end: Extract<FollowEnd, { closed: true }> } | { detached: true; batchId: string };

export type BatchExecution = Followed<BatchReport>;

/** What following needs of a batch kind: its progress query and lines, and the report read once it closed. */
export interface FollowedKind<P extends ProgressAnswer, R> {
  query: QueryDefinition<P>;
  printer: ProgressLines<P>;
  report(end: Extract<FollowEnd, { closed: true }>): Promise<R>;
}

export interface FollowOptions {
  calls: ReconnectingCalls;
  /** What the first Ctrl-C does (default: ask on a terminal, else detach). */
  onInterrupt?: InterruptMode;
}

export interface FollowToEndOptions extends FollowOptions {
  /** Runs in the batch, for the counters and the report; null for an until-decided batch: the runs it started are all. */
  total: number | null;
  /** A printer that already counted the runs finished before (attach). */
  printer?: ProgressPrinter;
}

/**
 * What `run` and `attach` share: follows the batch with its progress lines until it closes,
 * then reads its runs from the store. Ctrl-C detaches (the batch goes on in Temporal) or
 * cancels it (runs still record and clean up; a second Ctrl-C leaves at once).
 */
export async function followToEnd(runtime: EvalRuntime, batchId: string, io: CommandIo, options: FollowToEndOptions): Promise<BatchExecution> {
  const printer = options.printer ?? createProgressPrinter(io);
  return followUntilClosed(runtime, batchId, io, options, {
    query: batchProgressQuery,
    printer,
    // A progress answer from before planning says 0 runs: the larger count is the batch's.
    report: (end) => collectBatchReport(runtime.store, batchId, options.total === null ? null : Math.max(options.total, end.total ?? 0), printer),
  });
}

/**
 * Follows a batch of any kind until it closes, then reads its report. Ctrl-C detaches (the
 * batch goes on in Temporal) or cancels it (its items still record and clean up; a second
 * Ctrl-C leaves at once), as `onInterrupt` says.
 */
export async function followUntilClosed<P extends ProgressAnswer, R>(
  runtime: EvalRuntime,
  batchId: string,
  io: CommandIo,
  options: FollowOptions,
  kind: FollowedKind<P, R>,
): Promise<Followed<R>> {
  const { calls } = options;
  const following = new AbortController();
  let cancelling: Promise<void> | undefined;
  const stopHandling = handleInterrupts(options.onInterrupt ?? 'ask', io, {
    detach: () => following.abort(),
    cancel: () => {
      io.err('cancelling the batch: running runs record what they have and clean up (Ctrl-C again to leave now)');
      const handle = runtime.temporal.client.workflow.getHandle(batchId);
      cancelling = calls.call(() => handle.cancel(), following.signal).then(
        () => undefined,
        () => undefined,
      );
    },
    leave: () => {
      io.err(`leaving now: batch ${batchId} goes on cancelling in Temporal (\`evalflow status ${batchId}\`)`);
      process.exit(EXIT.detached);
    },
  });
  try {
    const end = await followBatch(batchId, { temporal: runtime.temporal, calls, query: kind.query, printer: kind.printer, signal: following.signal, localWorker: runtime.workers !== null });
    await cancelling;
    if (!end.closed) return { detached: true, batchId };
    return { detached: false, report: await kind.report(end), end };
  } finally {
    stopHandling();
  }
}

const POLL_MS = 1_000;
const QUERY_DEADLINE_MS = 5_000;

/**
 * Follows a batch until it closes: one progress line per finished run (through `printer`),
 * riding out Temporal outages. Returns only when no call of its own is in flight, so the
 * caller may close the connections at once.
 */
export async function followBatch<P extends ProgressAnswer>(batchId: string, context: FollowContext<P>): Promise<FollowEnd> {
  const { temporal, calls, query, printer, signal } = context;
  const handle = temporal.client.workflow.getHandle(batchId);
  let total: number | null = null;
  let unanswered = 0;
  try {
    for (;;) {
      const description = await calls.call(() => handle.describe(), signal);
      const status = description.status.name;
      if (status !== 'RUNNING' && status !== 'CONTINUED_AS_NEW') {
        return { closed: true, status: closedStatus(status), failure: await failureOf(handle, calls, signal), total };
      }
      try {
        const progress = await calls.call(() => temporal.client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(query)), signal);
        total = progress.total;
        unanswered = 0;
        printer.outcomes(progress);
      } catch (err) {
        if (signal?.aborted) throw err;
        // The description decides when the batch ended; a query that fails (a workflow task
        // retried, a continue-as-new under way) only means no progress line this time.
        if (isDeadline(err)) {
          // Twice in a row: once may be a slow worker; the batch is not lost, only unattended.
          unanswered += 1;
          if (unanswered === 2 && !context.localWorker) printer.noWorker(batchId);
        }
      }
      await sleep(POLL_MS, undefined, signal ? { signal } : {});
    }
  } catch (err) {
    if (signal?.aborted) return { closed: false, total };
    throw err;
  }
}

async function failureOf(handle: WorkflowHandle, calls: ReconnectingCalls, signal: AbortSignal | undefined): Promise<string | null> {
  try {
    await calls.call(() => handle.result(), signal);
    return null;
  } catch (err) {
    if (err instanceof WorkflowFailedError) return failureText(err);
    throw err;
  }
}

/**
 * Why a batch failed, in the words of what threw: the activity's own message (a planning
 * failure names the host and each problem), not the wrapper's "Activity task failed".
 */
export function failureText(err: WorkflowFailedError): string {
  let cause: Error | undefined = err.cause;
  while ((cause instanceof ActivityFailure || cause instanceof ChildWorkflowFailure) && cause.cause) cause = cause.cause;
  return cause?.message ?? err.message;
}

export function closedStatus(name: string): ClosedStatus {
  switch (name) {
    case 'COMPLETED':
      return 'completed';
    case 'CANCELLED':
      return 'cancelled';
    case 'TERMINATED':
      return 'terminated';
    case 'TIMED_OUT':
      return 'timed_out';
    default:
      return 'failed';
  }
}

function isDeadline(err: unknown): boolean {
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    if (isGrpcServiceError(cause) && cause.code === 4) return true;
  }
  return false;
}

/**
 * Prints one line per finished run, numbered in finishing order: from the progress query
 * while the batch runs, then, once it closed, from the store for the runs that finished after
 * the last answer. Every run is printed once, whichever source saw it first.
 */
export interface ProgressPrinter extends ProgressLines<BatchProgress> {
  /** Runs finished before we started following (how many, and those we know by id): counted, not printed. */
  skip(finished: number, runIds: Iterable<string>): void;
  /** The runs that finished after the last progress answer (the store has every run). */
  rest(runs: Run[], total: number): void;
  /** How many finished runs were counted so far. */
  readonly counted: number;
}

export function createProgressPrinter(io: CommandIo, more?: (progress: BatchProgress) => void): ProgressPrinter {
  const seen = new Set<string>();
  let counted = 0;
  let noWorkerSaid = false;
  return {
    get counted() {
      return counted;
    },
    skip(finished, runIds) {
      for (const runId of runIds) seen.add(runId);
      counted = Math.max(counted, finished, seen.size);
    },
    outcomes(progress) {
      for (const outcome of progress.outcomes) {
        if (seen.has(outcome.runId)) continue;
        seen.add(outcome.runId);
        counted += 1;
        announce(outcome.runId, outcome.status, outcome.result, outcome.overall, io, `${counted}/${progress.total}`);
      }
      more?.(progress);
    },
    rest(runs, total) {
      const finished = runs.filter((r) => !isUnfinished(r.status));
      const unseen = finished
        .filter((r) => !seen.has(r.run_id))
        .sort((a, b) => (a.finished_at ?? '').localeCompare(b.finished_at ?? '') || a.run_id.localeCompare(b.run_id, 'en', { numeric: true }));
      // Runs that finished before we attached (beyond the query's window) are not news.
      for (const run of unseen.slice(Math.max(0, unseen.length - (finished.length - counted)))) {
        seen.add(run.run_id);
        counted += 1;
        announce(run.run_id, run.status, run.result, run.overall, io, `${counted}/${total}`);
      }
    },
    noWorker(batchId) {
      if (noWorkerSaid) return;
      noWorkerSaid = true;
      io.err(noWorkerAnswers(batchId));
    },
  };
}

/** Said once when a followed batch's progress query goes unanswered twice and no worker runs here. */
export function noWorkerAnswers(batchId: string): string {
  return `no worker answers for batch ${batchId}: it goes on when a worker polls task queue ${SHARED_TASK_QUEUE} (\`evalflow worker\`)`;
}

function announce(runId: string, status: string, result: string | null, overall: number | null, io: CommandIo, counter: string): void {
  const verdict = result ? `${result}${overall !== null ? ` (overall ${overall})` : ''}` : status;
  io.err(`[${counter}] ${runId}: ${status === 'completed' ? verdict : `${status}${result ? ` ${verdict}` : ''}`}`);
}

export interface BatchReport {
  batchId: string;
  runs: Run[];
  total: number;
  /** True when every run completed (pass or fail): nothing aborted, errored or cancelled. */
  allCompleted: boolean;
  /** An until-decided batch's rounds as it ended: each case's sequential decision. */
  rounds?: RoundsState;
}

/**
 * The batch's runs as the store has them once it closed; prints the lines the follow did not (with a printer).
 * A total of null is an until-decided batch's: it runs as many as it needs, so those it ran are all.
 */
export async function collectBatchReport(store: Store, batchId: string, total: number | null, printer: ProgressPrinter | null): Promise<BatchReport> {
  // Numeric order, so attempt -10 of --runs-per-case comes after -9, not after -1.
  const runs = (await store.listRuns({ batchId })).sort((a, b) => a.run_id.localeCompare(b.run_id, 'en', { numeric: true }));
  const expected = total ?? runs.length;
  printer?.rest(runs, expected);
  return { batchId, runs, total: expected, allCompleted: runs.length === expected && runs.every((r) => r.status === 'completed') };
}

/** The end of `run` and `attach`: how the batch closed, the table, the runs that did not complete, the tally. */
export function printBatchReport(report: BatchReport, end: Extract<FollowEnd, { closed: true }>, io: CommandIo, uiUrl: string | undefined): void {
  if (end.status === 'cancelled') io.err(`batch ${report.batchId} was cancelled: its runs recorded what they had`);
  else if (end.failure) io.err(`batch ${report.batchId} ended early: ${end.failure}`);
  else if (end.status !== 'completed') io.err(`batch ${report.batchId} ended early: ${end.status}`);
  io.out('');
  for (const line of formatRunTable(report.runs, io.cwd)) io.out(line);
  const problems = formatRunProblems(report.runs);
  if (problems.length > 0) {
    io.out('');
    for (const line of problems) io.out(line);
  }
  const passed = report.runs.filter((r) => r.result === 'pass').length;
  const judged = report.runs.filter((r) => r.result !== null).length;
  const inDoubt = report.runs.filter((r) => r.status === 'needs_review').length;
  const notJudged = report.runs.length - judged - inDoubt;
  const apart = [...(inDoubt ? [`${inDoubt} need${inDoubt === 1 ? 's' : ''} a person's review`] : []), ...(notJudged ? [`${notJudged} not judged`] : [])];
  io.out('');
  io.out(`${report.runs.length} runs: ${passed}/${judged} passed${apart.map((part) => `, ${part}`).join('')} (batch ${report.batchId})`);
  for (const line of formatUncontained(report.runs)) io.out(line);
  if (uiUrl) io.out(`Web UI: ${uiUrl} (search EvalBatch="${report.batchId}")`);
}

/** What `run` and `attach` say when the user detaches: how to come back, and who runs the batch now. */
export function sayDetached(batchId: string, temporal: TemporalHandle, io: CommandIo): void {
  io.err(`detached: batch ${batchId} goes on in Temporal; follow it again with: evalflow attach ${batchId}`);
  if (temporal.mode === 'cluster') {
    io.err(`its runs go on on the cluster's workers (\`evalflow status ${batchId}\` shows where it stands)`);
  } else {
    io.err(`no worker runs it once this process ends: it goes on when one does (\`evalflow attach ${batchId}\` or \`evalflow worker\`)`);
  }
}
