import { WorkflowFailedError } from '@temporalio/client';
import { loadSettings } from '../config.js';
import { ConfigError } from '../errors.js';
import { runStamp } from '../run/runId.js';
import type { RunOutcome } from '../run/runOutcome.js';
import { RunStateSchema } from '../vocabulary/runStatus.js';
import type { Run, Store } from '../store/index.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { formatRunTable } from '../cli/output/runTable.js';
import { caseStability, loadRunsWithVerdicts } from '../summaries/index.js';
import type { EvalRuntime } from '../cli/runtime.js';
import { linesToStderr, type CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { RejudgeJson } from '../cli/json/rejudge.js';
import { runJson } from '../cli/json/runs.js';
import { openRuntime } from '../cli/runtime.js';

export interface RejudgeOptions {
  runIds?: string[];
  batch?: string;
  status?: string;
  judgeModel?: string;
  /** `--repeat k`: judge each stored transcript k more times as samples, to tell a flaky judge from a flaky agent. */
  repeat?: number;
  config?: string;
  /** Print the runs as one JSON document on stdout (docs/json.md); progress stays on stderr. */
  json?: boolean;
}

/**
 * `evalflow rejudge`: judges finished runs again from their stored transcripts, e.g. the
 * `judge_failed` ones of a batch, or all runs with a new judge model. Exit 0 when every run
 * got a verdict.
 */
export async function run(options: RejudgeOptions, given: CommandIo): Promise<number> {
  const io = options.json ? linesToStderr(given) : given;
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const runtime = await openRuntime(settings, io, { worker: 'auto' });
  try {
    const runs = await selectRuns(runtime.store, options);
    if (runs.length === 0) throw new ConfigError('no runs match; name run ids, or select with --batch and/or --status');
    const stamp = runStamp(new Date());
    if (options.repeat !== undefined) return await repeatJudgings(runtime, runs, options.repeat, stamp, options, io, options.json ? given : null);
    io.err(`rejudging ${runs.length} run${runs.length === 1 ? '' : 's'}${options.judgeModel ? ` with ${options.judgeModel}` : ''}`);
    const notRejudged: { run_id: string; reason: string }[] = [];
    const outcomes = await Promise.all(
      runs.map(async (target): Promise<RunOutcome | null> => {
        try {
          const outcome = (await runtime.temporal.client.workflow.execute('rejudgeWorkflow', {
            workflowId: `rejudge-${target.run_id}@${stamp}`,
            taskQueue: SHARED_TASK_QUEUE,
            args: [{ runId: target.run_id, ...(options.judgeModel ? { judgeModel: options.judgeModel } : {}) }],
            typedSearchAttributes: [
              { key: searchAttributes.caseId, value: target.case_id },
              { key: searchAttributes.candidate, value: target.candidate },
              ...(target.batch_id ? [{ key: searchAttributes.batchId, value: target.batch_id }] : []),
            ],
          })) as RunOutcome;
          io.err(`${target.run_id}: ${outcome.status}${outcome.result ? ` ${outcome.result}` : ''}`);
          return outcome;
        } catch (err) {
          const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
          const message = cause instanceof Error ? ((cause.cause instanceof Error ? cause.cause.message : undefined) ?? cause.message) : (err as Error).message;
          io.err(`${target.run_id}: not rejudged: ${message}`);
          notRejudged.push({ run_id: target.run_id, reason: message });
          return null;
        }
      }),
    );
    const refreshed = await Promise.all(runs.map(async (r) => (await runtime.store.getRun(r.run_id)) ?? r));
    io.out('');
    for (const line of formatRunTable(refreshed, io.cwd)) io.out(line);
    if (options.json) await printRejudged(given, runtime.store, refreshed, notRejudged, null);
    return outcomes.every((o) => o?.status === 'completed') ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

/**
 * `--repeat k`: every selected completed run judged k more times from its stored transcript,
 * one after another per run (each judging is a round of its own), the runs side by side. The
 * judgings are samples: the runs' verdicts stay. Then each case's stability is printed.
 */
async function repeatJudgings(runtime: EvalRuntime, runs: Run[], repeat: number, stamp: string, options: RejudgeOptions, io: CommandIo, jsonOut: CommandIo | null): Promise<number> {
  const judged = runs.filter((r) => r.status === 'completed');
  if (judged.length === 0) throw new ConfigError('--repeat judges completed runs again, and none of the selected runs completed');
  io.err(`judging ${judged.length} run${judged.length === 1 ? '' : 's'} ${repeat} more time${repeat === 1 ? '' : 's'} each (samples: the runs' verdicts stay)`);
  let failed = 0;
  const notJudged: { run_id: string; reason: string }[] = [];
  await Promise.all(
    judged.map(async (target) => {
      const results: string[] = [];
      for (let i = 1; i <= repeat; i++) {
        try {
          const outcome = (await runtime.temporal.client.workflow.execute('rejudgeWorkflow', {
            workflowId: `rejudge-${target.run_id}@${stamp}-sample-${i}`,
            taskQueue: SHARED_TASK_QUEUE,
            args: [{ runId: target.run_id, sample: true, ...(options.judgeModel ? { judgeModel: options.judgeModel } : {}) }],
          })) as RunOutcome;
          results.push(outcome.result ?? '?');
        } catch (err) {
          failed += 1;
          const reason = (err instanceof WorkflowFailedError ? err.cause?.message : undefined) ?? (err as Error).message;
          results.push(`not judged (${reason})`);
          notJudged.push({ run_id: target.run_id, reason });
        }
      }
      io.err(`${target.run_id}: ${target.result ?? '?'}; samples: ${results.join(', ')}`);
    }),
  );
  const entries = await loadRunsWithVerdicts(runtime.store, {});
  const selected = entries.filter((e) => judged.some((r) => r.run_id === e.run.run_id));
  const stability = caseStability(selected, await runtime.store.getJudgings(selected.map((e) => e.run.run_id)));
  io.out('');
  for (const [caseId, label] of Object.entries(stability)) io.out(`${caseId.padEnd(24)} ${label}`);
  if (jsonOut) await printRejudged(jsonOut, runtime.store, judged, notJudged, stability);
  return failed === 0 ? 0 : 1;
}

/** The --json document: the runs with their hosts, those whose judging failed, and the stability when asked. */
async function printRejudged(io: CommandIo, store: Store, runs: readonly Run[], notRejudged: RejudgeJson['not_rejudged'], stability: RejudgeJson['stability']): Promise<void> {
  const hosts = await store.getRunHosts(runs.map((r) => r.run_id));
  printJson(io, RejudgeJson, { schema_version: 1, runs: runs.map((r) => runJson(r, hosts)), not_rejudged: notRejudged, stability });
}

async function selectRuns(store: { getRun(id: string): Promise<Run | null>; listRuns(filter: object): Promise<Run[]> }, options: RejudgeOptions): Promise<Run[]> {
  if (options.runIds?.length) {
    const found = await Promise.all(options.runIds.map(async (id) => [id, await store.getRun(id)] as const));
    const missing = found.filter(([, r]) => !r).map(([id]) => id);
    if (missing.length) throw new ConfigError(`no such run in the store: ${missing.join(', ')}`);
    return found.map(([, r]) => r!);
  }
  if (!options.batch && !options.status) return [];
  const status = options.status ? RunStateSchema.safeParse(options.status) : undefined;
  if (status && !status.success) throw new ConfigError(`--status: expected one of ${RunStateSchema.options.join(', ')}, found '${options.status}'`);
  return store.listRuns({ ...(options.batch ? { batchId: options.batch } : {}), ...(status?.success ? { status: status.data } : {}) });
}
