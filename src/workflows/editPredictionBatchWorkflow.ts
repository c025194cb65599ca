import { CancellationScope, ContinueAsNew, continueAsNew, isCancellation, patched, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { EpBatchExample, EpBatchInput, EpBatchOutcome, EpBatchResult, EpExampleFailure } from '../editprediction/epBatch.js';
// epBatchLimits.ts has no imports at all, so its constant is safe in the workflow bundle.
import { MAX_FAILURES_KEPT } from '../editprediction/epBatchLimits.js';
import { epBatchProgressQuery, type EpBatchProgress } from './definitions.js';
import { causeText } from './failureText.js';
import { epLoadProfile, epPredictProfile, epScoreProfile, localProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const predictor = proxyActivities<Activities>(epPredictProfile);
const scorer = proxyActivities<Activities>(epScoreProfile);
const local = proxyLocalActivities<Activities>(localProfile);

/** Batches started since this patch open and close their own row (before it, the CLI wrote it); never renamed. */
export const EP_BATCH_ROW_PATCH = 'ep-batch-row-in-workflow';

/** Examples per page by default; the batch continues as new after each page, so its history stays small. */
const PAGE_SIZE = 200;
const RECENT_OUTCOMES = 200;

/**
 * An edit-prediction batch (`evalflow ep predict|score|eval`): per example load → predict
 * (skipped when the store already has predictions) → score. Examples of one repository run one
 * after another (they share a worktree); up to `maxParallelism` repositories run at once. A
 * failed example is recorded and the batch goes on, unless `failfast`. Works through the
 * examples a page at a time and continues as new after each page, so batches of thousands
 * keep a small history.
 */
export async function editPredictionBatchWorkflow(input: EpBatchInput): Promise<EpBatchResult> {
  if (!patched(EP_BATCH_ROW_PATCH)) return runPage(input);
  if (input.offset === 0) await local.openEpBatch(input);
  let result: EpBatchResult;
  try {
    result = await runPage(input);
  } catch (err) {
    // continue-as-new is thrown too: the row stays running for the next page.
    if (!isCancellation(err) && !(err instanceof ContinueAsNew)) await local.closeEpBatch({ input, status: 'failed', counts: {} });
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => local.closeEpBatch({ input, status: 'cancelled', counts: {} }));
    throw err;
  }
  const notRun = result.total - result.counts.finished;
  await local.closeEpBatch({
    input,
    status: result.counts.failed === 0 && notRun === 0 ? 'completed' : 'failed',
    counts: { examples: result.total, failed: result.counts.failed, not_run: notRun, reused: result.counts.reused },
  });
  return result;
}

/** One page of the batch; continues as new when more pages follow. */
async function runPage(input: EpBatchInput): Promise<EpBatchResult> {
  const counts = { ...input.counts };
  const failures: EpExampleFailure[] = [...input.failures];
  const recent: EpBatchOutcome[] = [...input.recent];
  const running = new Set<string>();
  let stopped = false;
  setHandler(epBatchProgressQuery, (): EpBatchProgress => ({
    batchId: input.batchId,
    total: input.examples.length,
    finished: counts.finished,
    failed: counts.failed,
    running: [...running],
    outcomes: recent,
  }));

  const finish = (example: EpBatchExample, outcome: ExampleOutcome) => {
    counts.finished += 1;
    if (outcome.reused) counts.reused += 1;
    if (outcome.failure) {
      counts.failed += 1;
      if (failures.length < MAX_FAILURES_KEPT) failures.push(outcome.failure);
      if (input.failfast) stopped = true;
    }
    recent.push({ key: example.key, name: example.name, status: outcome.failure ? 'failed' : 'done', detail: outcome.detail });
    if (recent.length > RECENT_OUTCOMES) recent.shift();
  };

  /** One repository group's examples of this page, one after another on one host. */
  const runGroup = async (group: EpBatchExample[]) => {
    const host = proxyActivities<Activities>({ ...epLoadProfile, taskQueue: await shared.claimHost() });
    for (const example of group) {
      if (stopped) return;
      running.add(example.name);
      try {
        finish(example, await runExample(example, input, host));
      } finally {
        running.delete(example.name);
      }
    }
  };

  const pageEnd = Math.min(input.offset + (input.pageSize ?? PAGE_SIZE), input.examples.length);
  const groups = groupsOf(input.examples.slice(input.offset, pageEnd));
  let next = 0;
  const lane = async () => {
    while (!stopped && next < groups.length) await runGroup(groups[next++] as EpBatchExample[]);
  };
  await Promise.all(Array.from({ length: Math.min(input.maxParallelism, groups.length) }, lane));

  if (!stopped && pageEnd < input.examples.length) {
    await continueAsNew<typeof editPredictionBatchWorkflow>({ ...input, offset: pageEnd, counts, failures, recent });
  }
  return { batchId: input.batchId, total: input.examples.length, counts, failures, stoppedEarly: stopped && counts.finished < input.examples.length };
}

interface ExampleOutcome {
  detail: string;
  reused: boolean;
  failure?: EpExampleFailure;
}

async function runExample(example: EpBatchExample, input: EpBatchInput, host: Activities): Promise<ExampleOutcome> {
  const ref = { batchId: input.batchId, exampleKey: example.key };
  let stage: EpExampleFailure['stage'] = 'load';
  let reused = false;
  try {
    const loaded = await host.loadEpExample({ ...ref, cwd: input.cwd });
    stage = 'predict';
    reused = loaded.predictions > 0;
    let detail = 'predictions reused';
    if (!reused) {
      const prediction = await predictor.predictEpExample({ ...ref, provider: input.provider });
      reused = prediction.reused;
      if (!reused) detail = `predicted by ${prediction.provider}${prediction.error ? ` (unusable reply: ${prediction.error})` : ''}`;
    }
    if (input.stage === 'predict') return { detail, reused };
    stage = 'score';
    const scored = await scorer.scoreEpExample({ ...ref, beta: input.beta });
    return { detail: `${detail}; delta chrF ${scored.deltaChrF.map((value) => value.toFixed(2)).join(', ')}`, reused };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const error = briefly(causeText(err));
    return { failure: { key: example.key, name: example.name, stage, error }, detail: `failed at ${stage}: ${error}`, reused };
  }
}

/** The page's examples by repository group, in first-seen order (the input is already sorted). */
function groupsOf(page: EpBatchExample[]): EpBatchExample[][] {
  const groups = new Map<number, EpBatchExample[]>();
  for (const example of page) {
    const group = groups.get(example.group);
    if (group) group.push(example);
    else groups.set(example.group, [example]);
  }
  return [...groups.values()];
}

/** A failure's text as a batch keeps it: the first thousand characters. */
function briefly(message: string): string {
  return message.length > 1_000 ? `${message.slice(0, 1_000)}…` : message;
}
