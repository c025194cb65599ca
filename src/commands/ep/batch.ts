import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSettings } from '../../config.js';
import type { Settings } from '../../config.js';
import {
  DEFAULT_DELTA_CHRF_BETA,
  exampleFromRows,
  exampleKey,
  exampleRow,
  formatEvalReport,
  groupExamplesByRepository,
  predictionRows,
  summaryJson,
  writeFailureArtifacts,
} from '../../editprediction/index.js';
import type { EpBatchInput, EpBatchResult, EpBatchStage, Example } from '../../editprediction/index.js';
import { makeBatchId, runStamp } from '../../run/runId.js';
import { epBatchProgressQuery, type EpBatchProgress } from '../../workflows/definitions.js';
import { EXIT } from '../../cli/exitCodes.js';
import { noWorkerAnswers, type FollowedKind } from '../../cli/batch/follow.js';
import type { ReconnectingCalls } from '../../cli/batch/reconnects.js';
import { startAndFollow } from '../../cli/batch/start.js';
import type { EpOptions, FailedMode, Subcommand } from './options.js';
import { writeExamples } from './output.js';
import type { CommandIo } from '../../cli/io.js';
import { openRuntime, type EvalRuntime } from '../../cli/runtime.js';

export interface EpBatchRequest {
  subcommand: Exclude<Subcommand, 'read'>;
  todo: Example[];
  failedMode: FailedMode;
  output: string | undefined;
  options: EpOptions;
  io: CommandIo;
}

/** `ep predict|score|eval` once the examples are chosen: one batch, then its outputs. */
export async function runEpBatch({ subcommand, todo, failedMode, output, options, io }: EpBatchRequest): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const runtime = await openRuntime(settings, io, { worker: options.worker === false ? false : 'auto' });
  try {
    const batch = await runBatch(settings, runtime, todo, subcommand === 'predict' ? 'predict' : 'score', options, io);
    if (batch === null) return EXIT.detached;
    const failedKeys = new Set(batch.failures.keys());
    const keep = (example: Example) => !batch.notRun.has(exampleKey(example)) && (failedMode === 'keep' || !failedKeys.has(exampleKey(example)));
    if (failedMode !== 'skip-no-files') {
      for (const example of batch.examples) {
        const error = batch.failures.get(exampleKey(example));
        if (error !== undefined) io.err(`failure details of ${example.name}: ${await writeFailureArtifacts(batch.artifactsDir, example, error)}`);
      }
    }
    const succeeded = batch.examples.filter((example) => !failedKeys.has(exampleKey(example)) && !batch.notRun.has(exampleKey(example)));
    if (subcommand !== 'eval' || output || options.inPlace) await writeExamples(batch.examples.filter(keep), options, output, io);
    if (subcommand === 'eval') for (const line of formatEvalReport(succeeded, { verbose: options.verbose ?? false })) io.out(line);
    if (options.summaryJson && subcommand !== 'predict') {
      await writeFile(path.resolve(io.cwd, options.summaryJson), `${JSON.stringify(summaryJson(succeeded), null, 2)}\n`, 'utf8');
    }
    for (const [key, error] of batch.failures) io.err(`error: ${batch.examples.find((example) => exampleKey(example) === key)?.name ?? key}: ${error}`);
    if (batch.notRun.size > 0) io.err(`--failfast: stopped after the first failure; ${batch.notRun.size} example${batch.notRun.size === 1 ? ' was' : 's were'} not run`);
    if (failedKeys.size > 0) io.err(`${failedKeys.size} of ${batch.examples.length} examples failed (batch ${batch.batchId})`);
    return failedKeys.size > 0 || batch.notRun.size > 0 ? 1 : 0;
  } finally {
    await runtime.close();
  }
}

interface BatchOutcome {
  batchId: string;
  /** Every example of the batch in processing order, as the store has it now. */
  examples: Example[];
  /** Failed examples by key, with the step and error. */
  failures: Map<string, string>;
  /** Examples `--failfast` never started. */
  notRun: Set<string>;
  /** Where failure artifacts of this batch go. */
  artifactsDir: string;
}

/**
 * Saves the examples (and any predictions they carry) to the store, runs one
 * editPredictionBatchWorkflow over them showing progress, and reads the results back.
 */
async function runBatch(settings: Settings, runtime: EvalRuntime, todo: Example[], stage: EpBatchStage, options: EpOptions, io: CommandIo): Promise<BatchOutcome | null> {
  const stamp = runStamp(new Date());
  const batchId = `ep-${makeBatchId(stamp, randomBytes(3).toString('hex'))}`;
  const groups = groupExamplesByRepository(todo);
  const ordered = groups.flat();
  for (const example of ordered) await saveExample(runtime, batchId, example);

  const providerName = options.provider ?? 'openai';
  const endpoint = { ...settings.editPrediction, ...(options.model ? { model: options.model } : {}) };
  const input: EpBatchInput = {
    batchId,
    examples: groups.flatMap((group, index) => group.map((example) => ({ key: exampleKey(example), name: example.name, group: index }))),
    provider: { name: providerName, ...(providerName === 'openai' ? { endpoint } : {}) },
    stage,
    beta: options.beta ?? DEFAULT_DELTA_CHRF_BETA,
    maxParallelism: options.maxParallelism ?? 10,
    // Zed fails fast when only one example is loaded: nothing else could go on.
    failfast: options.failfast === true || ordered.length === 1,
    cwd: io.cwd,
    offset: 0,
    counts: { finished: 0, failed: 0, reused: 0 },
    failures: [],
    recent: [],
  };
  const model = input.provider.endpoint ? ` (${input.provider.endpoint.model})` : '';
  const intro = [`batch ${batchId}: ${ordered.length} example${ordered.length === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'}, provider ${providerName}${model}, max parallelism ${input.maxParallelism}`];
  const followed = await startAndFollow(
    runtime,
    io,
    { workflowType: 'editPredictionBatchWorkflow', batchId, args: [input], intro },
    options.onInterrupt ? { onInterrupt: options.onInterrupt } : {},
    (calls) => epBatchKind(runtime, batchId, calls, io),
  );
  if (followed.detached) {
    sayEpDetached(runtime, batchId, io);
    return null;
  }
  const result = followed.report;
  const scores = await runtime.store.listEpScores(batchId);
  const examples: Example[] = [];
  for (const example of ordered) {
    const key = exampleKey(example);
    const row = await runtime.store.getEpExample(key);
    const predictions = await runtime.store.getEpPredictions(batchId, key);
    const stored = row ? exampleFromRows(row, predictions, scores.filter((score) => score.example_key === key)) : example;
    examples.push({ ...stored, name: example.name });
  }

  const failures = new Map<string, string>();
  for (const failure of result?.failures ?? []) failures.set(failure.key, `${failure.stage} failed: ${failure.error}`);
  const notRun = new Set<string>();
  for (const example of examples) {
    const key = exampleKey(example);
    const finished = stage === 'predict' ? example.predictions.length > 0 : example.score.length > 0;
    if (finished || failures.has(key)) continue;
    if (result && result.stoppedEarly) notRun.add(key);
    else failures.set(key, result ? 'failed (the batch kept only its first failures; see the Web UI)' : 'the batch ended before this example finished');
  }
  return { batchId, examples, failures, notRun, artifactsDir: path.join(settings.stateDir, 'ep', 'runs', batchId) };
}

/** The example row (keeping prompt inputs an earlier batch loaded) and the predictions the input carries. */
async function saveExample(runtime: EvalRuntime, batchId: string, example: Example): Promise<void> {
  const row = exampleRow(example);
  const existing = await runtime.store.getEpExample(row.example_key);
  if (row.spec.prompt_inputs === undefined && existing?.spec.prompt_inputs !== undefined) row.spec.prompt_inputs = existing.spec.prompt_inputs;
  await runtime.store.saveEpExample(row);
  for (const prediction of predictionRows(example)) {
    await runtime.store.saveEpPrediction({ batch_id: batchId, example_key: row.example_key, ...prediction });
  }
}

/**
 * How an edit-prediction batch is followed: one line per finished example, and once it
 * closed its result (null when it did not complete). The workflow opens and closes the batch
 * row itself, so a CLI that detaches or dies leaves no batch running.
 */
function epBatchKind(runtime: EvalRuntime, batchId: string, calls: ReconnectingCalls, io: CommandIo): FollowedKind<EpBatchProgress, EpBatchResult | null> {
  const seen = new Set<string>();
  const printer = {
    outcomes(progress: EpBatchProgress) {
      for (const outcome of progress.outcomes) {
        if (seen.has(outcome.key)) continue;
        seen.add(outcome.key);
        io.err(`[${seen.size}/${progress.total}] ${outcome.name}: ${outcome.detail}`);
      }
    },
    noWorker: (id: string) => io.err(noWorkerAnswers(id)),
  };
  const handle = runtime.temporal.client.workflow.getHandle(batchId);
  return {
    query: epBatchProgressQuery,
    printer,
    async report(end) {
      // The last outcomes may have come after the last poll; a closed workflow still answers.
      const last = await calls.call(() => handle.query(epBatchProgressQuery)).catch(() => null);
      if (last) printer.outcomes(last);
      if (end.status === 'completed') return (await calls.call(() => handle.result())) as EpBatchResult;
      io.err(end.status === 'cancelled' ? `batch ${batchId} was cancelled` : `batch ${batchId} ended early: ${end.failure ?? end.status}`);
      return null;
    },
  };
}

/** What `ep` says when the user detaches: the batch goes on, and its row records how it ends. */
function sayEpDetached(runtime: EvalRuntime, batchId: string, io: CommandIo): void {
  io.err(`detached: batch ${batchId} goes on in Temporal; its row records how it ends (\`evalflow batches\`)`);
  if (runtime.temporal.mode !== 'cluster') io.err(`no worker runs it once this process ends: it goes on when one does (\`evalflow worker\`)`);
}
