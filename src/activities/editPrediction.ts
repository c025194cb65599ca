import { join } from 'node:path';
import {
  createPredictionProvider,
  exampleFromRows,
  exampleRow,
  loadProject,
  parseRepositoryUrl,
  predictExample,
  scoreExample,
  storedPrediction,
} from '../editprediction/index.js';
import type { EpProviderSpec, Example } from '../editprediction/index.js';
import { InternalError } from '../errors.js';
import type { EpExample } from '../store/index.js';
import type { ActivityDeps } from './deps.js';
import { heartbeatWhile } from './temporalContext.js';

/** One example of one batch; its spec is in the store under the key. */
export interface EpExampleRef {
  batchId: string;
  exampleKey: string;
}

export interface EpLoadOutput {
  /** False when the example already had prompt inputs (from its input, or an earlier load). */
  replayed: boolean;
  /** Predictions the store already holds for this example in this batch. */
  predictions: number;
}

export interface EpPredictOutput {
  /** True when the store already held predictions: the model was not asked. */
  reused: boolean;
  provider: string;
  /** A malformed model reply is a prediction with an error, not a failure. */
  error: string | null;
}

export interface EpScoreOutput {
  /** Delta chrF of each prediction, in order. */
  deltaChrF: number[];
}

/**
 * The edit-prediction track's activities, thin over `src/editprediction`: load (replay in the
 * host's worktree cache under `<stateDir>/ep`), predict and score. Each reads its example from
 * the store by key and writes its result back, so a retried or resumed step finds the work of
 * an earlier attempt instead of doing it again.
 */
export function editPredictionActivities(deps: ActivityDeps) {
  const cacheDir = join(deps.stateDir, 'ep');
  const serialize = keyedQueue();

  async function readExample(exampleKey: string): Promise<{ row: EpExample; example: Example }> {
    const row = await deps.store.getEpExample(exampleKey);
    if (!row) throw new InternalError(`edit-prediction example ${exampleKey} is not in the store; the command saves every example before starting the batch`);
    return { row, example: exampleFromRows(row, [], []) };
  }

  return {
    /** Replay the example (rebuild its buffer from the repository) and save its prompt inputs with it, unless it has them already. */
    async loadEpExample({ batchId, exampleKey, cwd }: EpExampleRef & { cwd: string }): Promise<EpLoadOutput> {
      const { row, example } = await readExample(exampleKey);
      const predictions = (await deps.store.getEpPredictions(batchId, exampleKey)).length;
      if (example.prompt_inputs?.cursor_excerpt !== undefined) return { replayed: false, predictions };
      const location = parseRepositoryUrl(example.repository_url, cwd);
      // Examples of one repository share its worktree; groups keep them apart, and this keeps
      // two batches on one worker apart too.
      const loaded = await serialize(`${location.owner}/${location.name}`, () => heartbeatWhile(() => loadProject(example, { cacheDir, cwd }), 2_000));
      await deps.store.saveEpExample({ ...row, spec: exampleRow(loaded).spec });
      return { replayed: true, predictions };
    },

    /**
     * Ask the provider, unless the store already holds a prediction for this example in this
     * batch: then the model is not asked again (a worker that died after the model answered,
     * an input that was predicted before).
     */
    async predictEpExample({ batchId, exampleKey, provider }: EpExampleRef & { provider: EpProviderSpec }): Promise<EpPredictOutput> {
      const existing = await deps.store.getEpPredictions(batchId, exampleKey);
      if (existing.length > 0) {
        const first = existing[0] as (typeof existing)[number];
        const error = first.prediction.error;
        return { reused: true, provider: first.provider, error: typeof error === 'string' ? error : null };
      }
      const { example } = await readExample(exampleKey);
      const predictor = createPredictionProvider(
        provider.name,
        provider.endpoint ? { llm: deps.llmFor('candidate', provider.endpoint), model: provider.endpoint.model } : {},
      );
      const predicted = await heartbeatWhile(() => predictExample(example, predictor), 2_000);
      for (const [repetition, prediction] of predicted.predictions.entries()) {
        await deps.store.saveEpPrediction({
          batch_id: batchId,
          example_key: exampleKey,
          provider: prediction.provider,
          repetition,
          prediction: storedPrediction(prediction, predicted.prompt ?? undefined),
        });
      }
      return { reused: false, provider: predictor.name, error: predicted.predictions[0]?.error ?? null };
    },

    /** Score every prediction of the example in this batch and save one score per prediction. */
    async scoreEpExample({ batchId, exampleKey, beta }: EpExampleRef & { beta: number }): Promise<EpScoreOutput> {
      const { row } = await readExample(exampleKey);
      const stored = await deps.store.getEpPredictions(batchId, exampleKey);
      if (stored.length === 0) throw new InternalError(`${row.name}: batch ${batchId} has no prediction to score; predictEpExample comes first`);
      const scored = scoreExample(exampleFromRows(row, stored, []), { beta });
      for (const [index, score] of scored.score.entries()) {
        const prediction = stored[index] as (typeof stored)[number];
        await deps.store.saveEpScore({
          batch_id: batchId,
          example_key: exampleKey,
          provider: prediction.provider,
          repetition: prediction.repetition,
          score: JSON.parse(JSON.stringify(score)) as Record<string, unknown>,
        });
      }
      return { deltaChrF: scored.score.map((score) => score.delta_chr_f) };
    },
  };
}

/** Runs work one at a time per key, in arrival order, within this worker process. */
function keyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return async function serialize<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    let release = () => undefined as void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
