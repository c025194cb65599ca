import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
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
import { SHARED_TASK_QUEUE, searchAttributes } from '../../temporal/names.js';
import { epBatchProgressQuery } from '../../workflows/definitions.js';
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
async function runBatch(settings: Settings, runtime: EvalRuntime, todo: Example[], stage: EpBatchStage, options: EpOptions, io: CommandIo): Promise<BatchOutcome> {
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
  // The workflow opens and closes the batch row itself, so a CLI that dies leaves no batch running.
  const handle = await runtime.temporal.client.workflow.start('editPredictionBatchWorkflow', {
    workflowId: batchId,
    taskQueue: SHARED_TASK_QUEUE,
    args: [input],
    typedSearchAttributes: [{ key: searchAttributes.batchId, value: batchId }],
  });
  const model = input.provider.endpoint ? ` (${input.provider.endpoint.model})` : '';
  io.err(`batch ${batchId}: ${ordered.length} example${ordered.length === 1 ? '' : 's'} in ${groups.length} group${groups.length === 1 ? '' : 's'}, provider ${providerName}${model}, max parallelism ${input.maxParallelism}`);
  if (runtime.temporal.uiUrl) io.err(`Web UI: ${runtime.temporal.uiUrl}/namespaces/${runtime.temporal.namespace}/workflows/${batchId}`);
  if (!runtime.workers) io.err(`no worker in this process: the batch runs when a worker polls task queue ${SHARED_TASK_QUEUE} (start one with \`evalflow worker\`)`);

  const result = await followBatch(handle, ordered.length, io);
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

/** Prints each finished example until the batch ends; a Ctrl-C cancels the batch. */
async function followBatch(
  handle: Awaited<ReturnType<EvalRuntime['temporal']['client']['workflow']['start']>>,
  total: number,
  io: CommandIo,
): Promise<EpBatchResult | null> {
  // Only the first Ctrl-C is ours; the next one finds no handler and ends the process.
  const onSigint = () => {
    io.err('cancelling the batch (Ctrl-C again to leave now)');
    void handle.cancel().catch(() => undefined);
  };
  process.once('SIGINT', onSigint);
  const seen = new Set<string>();
  const report = async () => {
    const progress = await handle.query(epBatchProgressQuery).catch(() => null);
    for (const outcome of progress?.outcomes ?? []) {
      if (seen.has(outcome.key)) continue;
      seen.add(outcome.key);
      io.err(`[${seen.size}/${total}] ${outcome.name}: ${outcome.detail}`);
    }
  };
  // One query at a time, and none left in flight once the batch ends: the connection closes then.
  let ended = false;
  let wake = () => undefined as void;
  const polling = (async () => {
    while (!ended) {
      await report();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  const stopPolling = async () => {
    ended = true;
    wake();
    await polling;
  };
  try {
    const result = (await handle.result()) as EpBatchResult;
    await stopPolling();
    // The last outcomes may have come after the last poll; a closed workflow still answers.
    await report();
    return result;
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    io.err(`batch ${handle.workflowId} ended early: ${err.cause?.message ?? err.message}`);
    return null;
  } finally {
    await stopPolling();
    process.off('SIGINT', onSigint);
  }
}
