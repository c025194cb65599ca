import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import type { CandidateSpec } from '../candidates/adapter.js';
import type { Settings } from '../config.js';
import type { EvalCase } from '../evalset/index.js';
import type { BatchInput } from '../run/batchInput.js';
import { selectionDigest } from '../run/batchPlan.js';
import { makeBatchId, makeRunId, runStamp } from '../run/runId.js';
import type { Run } from '../store/index.js';
import type { BatchProgress } from '../run/progress.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { batchProgressQuery } from '../workflows/definitions.js';
import type { CommandIo } from './io.js';
import type { EvalRuntime } from './runtime.js';

export interface BatchRequest {
  /** The bank folders (or case folders) and ids the cases were selected from, as the workers will see them. */
  paths: string[];
  only?: string[];
  /** The selected cases, already validated. */
  cases: EvalCase[];
  candidate: CandidateSpec;
  runsPerCase: number;
  parallelism: number;
}

export interface BatchReport {
  batchId: string;
  runs: Run[];
  /** True when every run completed (pass or fail): nothing aborted, errored or cancelled. */
  allCompleted: boolean;
}

/**
 * Starts one evalBatchWorkflow for the cases, shows progress until it ends, and returns the
 * runs as the store has them. The first Ctrl-C cancels the batch (runs still record and clean
 * up); a second one leaves at once.
 */
export async function executeBatch(settings: Settings, runtime: EvalRuntime, request: BatchRequest, io: CommandIo): Promise<BatchReport> {
  const stamp = await freshStamp(runtime, request);
  const batchId = makeBatchId(stamp, randomBytes(3).toString('hex'));
  const total = request.cases.length * request.runsPerCase;
  const input: BatchInput = {
    batchId,
    stamp,
    selection: { paths: request.paths, ...(request.only?.length ? { only: request.only } : {}), runsPerCase: request.runsPerCase, digest: selectionDigest(request.cases) },
    total: null,
    template: {
      candidate: request.candidate,
      examiner: settings.examiner,
      judge: settings.judge,
      project: settings.project,
      workflowDir: settings.workflowDir,
      runsDir: settings.runsDir,
      turnTimeoutS: settings.candidates[request.candidate.name]?.turnTimeoutS ?? settings.turnTimeoutS,
      recovery: settings.recovery,
      judging: settings.judging,
    },
    parallelism: request.parallelism,
    offset: 0,
    counts: { finished: 0, passed: 0, failed: 0 },
    recent: [],
  };
  const handle = await runtime.temporal.client.workflow.start('evalBatchWorkflow', {
    workflowId: batchId,
    taskQueue: SHARED_TASK_QUEUE,
    args: [input],
    typedSearchAttributes: [{ key: searchAttributes.batchId, value: batchId }],
  });
  io.err(`batch ${batchId}: ${total} run${total === 1 ? '' : 's'} of ${request.cases.length} case${request.cases.length === 1 ? '' : 's'} with candidate ${request.candidate.name}, parallelism ${request.parallelism}`);
  if (runtime.temporal.uiUrl) io.err(`Web UI: ${runtime.temporal.uiUrl}/namespaces/${runtime.temporal.namespace}/workflows/${batchId}`);
  if (!runtime.workers) io.err(`no worker in this process: the batch runs when a worker polls task queue ${SHARED_TASK_QUEUE} (start one with \`evalflow worker\`)`);

  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts === 1) {
      io.err('cancelling the batch: running runs record what they have and clean up (Ctrl-C again to leave now)');
      void handle.cancel().catch(() => undefined);
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', onSigint);
  const seen = new Set<string>();
  const poll = setInterval(() => {
    void handle
      .query(batchProgressQuery)
      .then((progress) => reportProgress(progress, seen, io))
      .catch(() => undefined);
  }, 1_000);
  try {
    await handle.result();
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    io.err(`batch ${batchId} ended early: ${err.cause?.message ?? err.message}`);
  } finally {
    clearInterval(poll);
    process.off('SIGINT', onSigint);
  }
  // Numeric order, so attempt -10 of --runs-per-case comes after -9, not after -1.
  const runs = (await runtime.store.listRuns({ batchId })).sort((a, b) => a.run_id.localeCompare(b.run_id, 'en', { numeric: true }));
  for (const run of runs) if (!seen.has(run.run_id)) announce(run.run_id, run.status, run.result, run.overall, io);
  const allCompleted = runs.length === total && runs.every((r) => r.status === 'completed');
  return { batchId, runs, allCompleted };
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
    const taken = first ? await runtime.store.getRun(makeRunId(first.id, request.candidate.name, stamp, request.runsPerCase > 1 ? 1 : undefined)) : null;
    if (!taken) return stamp;
    at += 1_000;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
  }
}

/**
 * Prints the outcomes not printed yet, each numbered in finishing order: several runs that
 * finish between two polls get their own number, not the batch's count at the poll.
 */
export function reportProgress(progress: BatchProgress, seen: Set<string>, io: CommandIo): void {
  for (const outcome of progress.outcomes) {
    if (seen.has(outcome.runId)) continue;
    seen.add(outcome.runId);
    announce(outcome.runId, outcome.status, outcome.result, outcome.overall, io, `${seen.size}/${progress.total}`);
  }
}

function announce(runId: string, status: string, result: string | null, overall: number | null, io: CommandIo, counter = ''): void {
  const verdict = result ? `${result}${overall !== null ? ` (overall ${overall})` : ''}` : status;
  io.err(`${counter ? `[${counter}] ` : ''}${runId}: ${status === 'completed' ? verdict : `${status}${result ? ` ${verdict}` : ''}`}`);
}

/** One line per run that did not complete, with why: the table alone says only `infra_error`. */
export function formatRunProblems(runs: Run[]): string[] {
  return runs
    .filter((r) => r.status !== 'completed')
    .map((r) => `${r.run_id}: ${r.status}${r.error ? `: ${r.error.split('\n')[0]}` : ''} (details: evalflow show ${r.run_id})`);
}

/** The table `evalflow run` prints: case, status, result, overall, run dir. */
export function formatRunTable(runs: Run[], cwd: string): string[] {
  const rows = runs.map((r) => [r.case_id, r.status, r.result ?? '-', r.overall === null ? '-' : r.overall.toFixed(1), relative(cwd, r.run_dir) || '.']);
  const header = ['case', 'status', 'result', 'overall', 'run dir'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
