import { parseOrThrow } from '../../format.js';
import { exampleKey } from './exampleKey.js';
import { exampleToJson } from './exampleToJson.js';
import { ExampleSchema, PredictionSchema, PredictionScoreSchema, PromptSchema } from './schema.js';
import type { Example, Prediction, Prompt } from './schema.js';

/**
 * How an example travels through the store's `ep_*` rows (plain JSON, no store import): the
 * example row holds the spec, plus `prompt_inputs` once the example was loaded (they are
 * derived from the spec, so they share its key); a prediction row holds Zed's prediction
 * object plus the `prompt` that produced it; a score row holds Zed's `PredictionScore`.
 */
export interface ExampleRow {
  example_key: string;
  name: string;
  repository_url: string;
  revision: string;
  spec: Record<string, unknown>;
}

export interface PredictionRow {
  provider: string;
  repetition: number;
  prediction: Record<string, unknown>;
}

export interface ScoreRow {
  provider: string;
  repetition: number;
  score: Record<string, unknown>;
}

/** The example row: the spec and any prompt inputs, without predictions, prompt or scores. */
export function exampleRow(example: Example): ExampleRow {
  const { prompt: _prompt, ...rest } = example;
  const spec = exampleToJson({ ...rest, predictions: [], score: [], qa: [] });
  return { example_key: exampleKey(example), name: example.name, repository_url: example.repository_url, revision: example.revision, spec };
}

/**
 * Prediction rows for the predictions an example already carries (an input that went through
 * `ep predict` before): repetitions count per provider, in order, as `--repetitions` would.
 */
export function predictionRows(example: Example): PredictionRow[] {
  const seen = new Map<string, number>();
  return example.predictions.map((prediction) => {
    const repetition = seen.get(prediction.provider) ?? 0;
    seen.set(prediction.provider, repetition + 1);
    return { provider: prediction.provider, repetition, prediction: storedPrediction(prediction, example.prompt ?? undefined) };
  });
}

/** The JSON of a prediction row: Zed's prediction object, and the prompt that produced it. */
export function storedPrediction(prediction: Prediction, prompt: Prompt | undefined): Record<string, unknown> {
  return JSON.parse(JSON.stringify({ ...prediction, ...(prompt ? { prompt } : {}) })) as Record<string, unknown>;
}

/**
 * Rebuild the example as Zed's JSONL line from its rows: predictions in row order (the prompt
 * of the first that has one becomes the example's `prompt`), and scores only when every
 * prediction has one (Zed's `score` list is parallel to `predictions`).
 */
export function exampleFromRows(row: Pick<ExampleRow, 'example_key' | 'spec'>, predictions: PredictionRow[], scores: ScoreRow[]): Example {
  const source = `store: ep_examples ${row.example_key}`;
  const example = parseOrThrow(ExampleSchema, row.spec, source);
  let prompt: Prompt | undefined;
  const parsed = predictions.map((stored) => {
    const where = `store: ep_predictions ${row.example_key} ${stored.provider} #${stored.repetition}`;
    const { prompt: storedPrompt, ...fields } = stored.prediction;
    if (prompt === undefined && storedPrompt !== undefined && storedPrompt !== null) prompt = parseOrThrow(PromptSchema, storedPrompt, `${where}: prompt`);
    return parseOrThrow(PredictionSchema, fields, where);
  });
  const scoreFor = (stored: PredictionRow) => scores.find((score) => score.provider === stored.provider && score.repetition === stored.repetition);
  const complete = predictions.length > 0 && predictions.every((stored) => scoreFor(stored) !== undefined);
  const score = complete
    ? predictions.map((stored) => parseOrThrow(PredictionScoreSchema, scoreFor(stored)?.score, `store: ep_scores ${row.example_key} ${stored.provider} #${stored.repetition}`))
    : [];
  return { ...example, ...(prompt ? { prompt } : {}), predictions: parsed, score };
}
