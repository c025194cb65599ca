import { WorkflowFailedError } from '@temporalio/client';
import { loadSettings } from '../config.js';
import { ConfigError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { describeAnomaly } from '../vocabulary/anomaly.js';
import type { RunOutcome } from '../run/runOutcome.js';
import { RunSpecSchema, type RunSpec } from '../run/runSpec.js';
import type { Store } from '../store/index.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { formatRunTable } from '../cli/output/runTable.js';
import { linesToStderr, type CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { ResumeJson } from '../cli/json/resume.js';
import { runJson } from '../cli/json/runs.js';
import { openRuntime } from '../cli/runtime.js';

/**
 * `evalflow resume RUN_ID`: continues a run that the infrastructure stopped after its
 * candidate had worked (an examiner endpoint down past its outage window, say). Its sandbox
 * was kept on its host; the run starts again there, and every step that finished (setup,
 * examiner and candidate turns) is taken from the store instead of being run again. Exit 0
 * when the run then completes.
 */
export async function run(options: { runId: string; config?: string; json?: boolean }, given: CommandIo): Promise<number> {
  const io = options.json ? linesToStderr(given) : given;
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const runtime = await openRuntime(settings, io, { worker: 'auto' });
  try {
    const spec = await resumableSpec(runtime.store, options.runId);
    io.err(`resuming ${spec.runId} on host ${spec.host} (resume ${spec.resumes}): finished steps are taken from the store`);
    let outcome: RunOutcome;
    try {
      outcome = (await runtime.temporal.client.workflow.execute('evalRunWorkflow', {
        workflowId: spec.runId,
        taskQueue: SHARED_TASK_QUEUE,
        args: [spec],
        typedSearchAttributes: [
          { key: searchAttributes.caseId, value: spec.evalCase.id },
          { key: searchAttributes.candidate, value: spec.candidate.name },
          { key: searchAttributes.batchId, value: spec.batchId },
          { key: searchAttributes.status, value: 'running' },
        ],
      })) as RunOutcome;
    } catch (err) {
      if (!(err instanceof WorkflowFailedError)) throw err;
      io.err(`${spec.runId}: ${err.cause?.message ?? err.message}`);
      return 1;
    }
    await refreshBatchCounts(runtime.store, spec.batchId);
    const row = await runtime.store.getRun(spec.runId);
    if (row) for (const line of formatRunTable([row], io.cwd)) io.out(line);
    for (const anomaly of outcome.anomalies) io.out(`anomaly   ${describeAnomaly(anomaly)}`);
    if (outcome.error) io.out(`error     ${outcome.error}`);
    if (options.json && row) {
      const run = runJson(row, await runtime.store.getRunHosts([row.run_id]));
      printJson(given, ResumeJson, { schema_version: 1, run, anomalies: outcome.anomalies.map((a) => ({ kind: a.kind, description: describeAnomaly(a) })), error: outcome.error ?? null });
    }
    return outcome.status === 'completed' ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

/** The stored spec of a run that can be resumed, pinned to its host and numbered as the next resume. */
async function resumableSpec(store: Store, runId: string): Promise<RunSpec & { host: string; resumes: number }> {
  const row = await store.getRun(runId);
  if (!row) throw new ConfigError(`no run ${runId} in the store`);
  if (row.status === 'pending' || row.status === 'running') {
    throw new ConfigError(`run ${runId} is still ${row.status}; follow it with \`evalflow status\``);
  }
  if (row.status !== 'infra_error') {
    throw new ConfigError(`run ${runId} ended ${row.status}: only an infra_error run can be resumed (a judge_failed run is judged again with \`evalflow rejudge ${runId}\`)`);
  }
  if (!row.parked_host || !row.spec) {
    throw new ConfigError(`run ${runId} cannot be resumed: its sandbox was not kept (it stopped before the candidate worked, or its host was lost); run the case again with \`evalflow run --only ${row.case_id}\``);
  }
  const spec = parseOrThrow(RunSpecSchema, row.spec, `store: runs.spec of ${runId}`);
  return { ...spec, host: row.parked_host, resumes: (spec.resumes ?? 0) + 1 };
}

/** The batch row's counts after one of its runs ended again. */
async function refreshBatchCounts(store: Store, batchId: string): Promise<void> {
  if (!(await store.getBatch(batchId))) return;
  const counts: Record<string, number> = { finished: 0, passed: 0, failed: 0 };
  for (const run of await store.listRuns({ batchId })) {
    if (run.status === 'pending' || run.status === 'running') continue;
    counts.finished! += 1;
    counts[run.status] = (counts[run.status] ?? 0) + 1;
    if (run.result === 'pass') counts.passed! += 1;
    if (run.result === 'fail') counts.failed! += 1;
  }
  await store.updateBatch(batchId, { counts, ...((counts.completed ?? 0) > 0 ? { status: 'completed' as const } : {}) });
}
