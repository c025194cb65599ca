import { userInfo } from 'node:os';
import { WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client } from '@temporalio/client';
import { loadSettings, type Settings } from '../config.js';
import { ConfigError, ReviewError, StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { ReviewDecisionSchema, type ReviewDecision } from '../vocabulary/reviewDecision.js';
import { reviewCommand } from '../run/reviewText.js';
import type { RunOutcome } from '../run/runOutcome.js';
import { latestVerdict, recordReviewDecision, rewriteReviewFile } from '../run/runReview.js';
import { openStore, type Store } from '../store/index.js';
import { connectTemporal } from '../temporal/connection.js';
import { searchAttributes } from '../temporal/names.js';
import { queueReviewSignal, reviewRunUpdate } from '../workflows/definitions.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { formatTable } from '../cli/output/table.js';
import { printJson } from '../cli/json/document.js';
import { ReviewPendingJson, type PendingRunJson } from '../cli/json/reviewPending.js';
import type * as z from 'zod';
import { UsageError } from '../errors.js';

export interface ReviewOptions {
  runId?: string;
  result?: string;
  note?: string;
  pending?: boolean;
  /** Seconds to wait for a worker to take the decision before queueing it. */
  wait?: number;
  config?: string;
  /** With --pending: the list as JSON (docs/json.md). */
  json?: boolean;
}

/** How long a decision waits for a worker to take it before it is queued in the run's history. */
export const DEFAULT_WAIT_S = 10;

/**
 * `evalflow review RUN_ID --result pass|fail --note TEXT`: a person settles a run whose verdict
 * needs one. A run whose workflow waits for the decision (`--review wait`) gets it as the
 * `reviewRun` update, and its workflow records it; a run whose workflow has ended gets it
 * recorded in the store directly (and review.md rewritten when the run directory is here).
 * `--pending` lists the runs that need a review. Exit 0 when the decision is recorded (or the
 * list printed), 1 when it is refused.
 */
export async function run(options: ReviewOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  if (options.json && !options.pending) throw new UsageError('--json: only with --pending (a decision prints one line)');
  if (options.pending) return listPending(settings, io, options.json === true);
  const runId = options.runId;
  if (!runId) throw new ConfigError('evalflow review needs a RUN_ID (or --pending to list the runs that need a review)');
  const decision = decisionFrom(runId, options, io.env);
  const temporal = await connectTemporal(settings, (line) => io.err(line));
  const waitS = options.wait ?? DEFAULT_WAIT_S;
  try {
    const delivery = await sendToWaitingWorkflow(temporal.client, runId, decision, waitS * 1000);
    if (delivery === 'queued') {
      io.out(
        `${runId}: decision queued (${decision.result} by ${decision.author}): no worker took it within ${waitS}s. It is kept in the run's Temporal history, ` +
          'survives a server restart, and is recorded when a worker runs (`evalflow worker`, or the `evalflow run` that started the run)',
      );
      return 0;
    }
    if (delivery) {
      io.out(`${runId}: ${delivery.status} ${delivery.result ?? ''}, decided by ${decision.author} (recorded by its waiting workflow, beside the judge's verdict)`);
      return 0;
    }
  } finally {
    await temporal.close();
  }
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const outcome = await recordReviewDecision(store, runId, decision);
    const rewritten = await rewriteReviewFile(store, runId);
    const file = rewritten ? 'review.md rewritten' : `review.md not rewritten: the run directory ${outcome.runDir} is not on this machine`;
    io.out(`${runId}: ${outcome.status} ${outcome.result ?? ''}, decided by ${decision.author} (recorded in the store beside the judge's verdict; ${file})`);
    return 0;
  } finally {
    await store.close();
  }
}

/** The decision the flags and the environment make; refused with what is missing. */
function decisionFrom(run: string, options: ReviewOptions, env: NodeJS.ProcessEnv): ReviewDecision {
  if (options.result !== 'pass' && options.result !== 'fail') {
    throw new ConfigError(`evalflow review ${run} needs --result pass or --result fail${options.result ? `, found '${options.result}'` : ''}`);
  }
  if (!options.note?.trim()) throw new ConfigError(`evalflow review ${run} needs --note "why": the note is kept beside the decision`);
  return parseOrThrow(
    ReviewDecisionSchema,
    { result: options.result, author: reviewer(env), note: options.note.trim(), decidedAt: new Date().toISOString() },
    'evalflow review',
  );
}

/** Who decides: EVALFLOW_REVIEWER, else the OS user. */
function reviewer(env: NodeJS.ProcessEnv): string {
  if (env.EVALFLOW_REVIEWER?.trim()) return env.EVALFLOW_REVIEWER.trim();
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.LOGNAME ?? 'unknown';
  }
}

/**
 * Sends the decision to the run's workflow when it is still open; null when it has ended (or
 * never ran in this Temporal), so the decision goes to the store. When no worker takes it
 * within `waitMs`, a run that waits for a review gets it queued as a signal (durable in its
 * history) instead of a caller blocked until a worker comes back.
 */
async function sendToWaitingWorkflow(client: Client, runId: string, decision: ReviewDecision, waitMs: number): Promise<RunOutcome | 'queued' | null> {
  const handle = client.workflow.getHandle(runId);
  if (!(await isOpen(client, runId))) return null;
  // Aborting the update's calls (not leaving them pending) keeps the SDK from retrying them on a closed connection.
  const late = new AbortController();
  const timer = setTimeout(() => late.abort(), waitMs);
  try {
    return await client.connection.withAbortSignal(late.signal, async () => {
      for (;;) {
        try {
          return await handle.executeUpdate(reviewRunUpdate, { args: [decision] });
        } catch (err) {
          if (late.signal.aborted) throw err;
          if (err instanceof WorkflowUpdateFailedError) throw new ReviewError(err.cause?.message ?? err.message);
          if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) continue;
          // The workflow ended between the look and the update: the store takes the decision.
          if (!(await isOpen(client, runId))) return null;
          throw err;
        }
      }
    });
  } catch (err) {
    if (!late.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  // No worker took it in time. The update may still reach one later, which then refuses the second copy.
  if (!(await waitsForReview(client, runId))) {
    throw new ReviewError(
      `${runId}: no worker took the decision within ${waitMs / 1000}s, and the run does not wait for a review yet (it is still running its stages); nothing was queued. Start a worker (\`evalflow worker\`) and decide once the run waits`,
    );
  }
  await handle.signal(queueReviewSignal, decision);
  return 'queued';
}

/** Whether the run's workflow has recorded needs_review and waits (its search attribute says so). */
async function waitsForReview(client: Client, runId: string): Promise<boolean> {
  const description = await client.workflow.getHandle(runId).describe();
  return description.status.name === 'RUNNING' && description.typedSearchAttributes.get(searchAttributes.status) === 'needs_review';
}

async function isOpen(client: Client, runId: string): Promise<boolean> {
  try {
    return (await client.workflow.getHandle(runId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

type PendingRow = z.input<typeof PendingRunJson>;

/**
 * The runs that need a person: those whose workflow waits (from Temporal, so they are listed
 * even while the run's own process holds the embedded store) and those recorded needs_review
 * (from the store).
 */
async function listPending(settings: Settings, io: CommandIo, json: boolean): Promise<number> {
  const rows = new Map<string, PendingRow>();
  const inStore = new Set<string>();
  const temporal = await connectTemporal(settings, (line) => io.err(line));
  try {
    const query = `${searchAttributes.status.name} = "needs_review" AND ExecutionStatus = "Running"`;
    for await (const execution of temporal.client.workflow.list({ query })) {
      const caseId = execution.typedSearchAttributes.get(searchAttributes.caseId) ?? '';
      rows.set(execution.workflowId, { run_id: execution.workflowId, case_id: caseId, state: 'waiting', judge_result: null, why: "see the run's current details in the Web UI" });
    }
  } finally {
    await temporal.close();
  }
  let store: Store | null = null;
  try {
    store = await openStore(lookupStoreOptions(settings));
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    io.err(`note: runs recorded needs_review are not listed: ${err.message}`);
  }
  if (store) {
    try {
      for (const run of await store.listRuns({ status: 'needs_review' })) {
        const verdict = await latestVerdict(store, run.run_id);
        inStore.add(run.run_id);
        rows.set(run.run_id, {
          run_id: run.run_id,
          case_id: run.case_id,
          state: rows.get(run.run_id)?.state ?? 'recorded',
          judge_result: verdict?.score.result ?? null,
          why: verdict?.score.review_reasons.join('; ') ?? run.error ?? '',
        });
      }
    } finally {
      await store.close();
    }
  }
  const pending = [...rows.values()].sort((a, b) => a.run_id.localeCompare(b.run_id, 'en', { numeric: true }));
  if (json) {
    printJson(io, ReviewPendingJson, { schema_version: 1, pending });
    return 0;
  }
  if (pending.length === 0) {
    io.out("No run needs a person's review.");
    return 0;
  }
  for (const line of table(pending, inStore)) io.out(line);
  io.out('');
  io.out(`${pending.length} run${pending.length === 1 ? ' needs' : 's need'} a person's review: ${reviewCommand('RUN_ID')} (waiting: its workflow takes the decision; recorded: the store does)`);
  return 0;
}

function table(rows: readonly PendingRow[], judged: ReadonlySet<string>): string[] {
  // Only the store knows what the judge said: a run seen only in Temporal shows `?`.
  const judgeSaid = (r: PendingRow) => r.judge_result ?? (judged.has(r.run_id) ? 'no result' : '?');
  const cells = rows.map((r) => [r.run_id, r.case_id, r.state, judgeSaid(r), r.why]);
  const header = ['run', 'case', 'state', 'judge said', 'why'];
  return formatTable(header, cells);
}
