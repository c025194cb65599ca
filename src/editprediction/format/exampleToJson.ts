import { SPEC_FIELDS, STATE_FIELDS } from './schema.js';
import type { Example, Prediction, PredictionScore } from './schema.js';

/**
 * The JSON object Zed's `ep` writes for an example: spec fields in serde order with Zed's
 * omission rules (empty lists, false flags and absent options left out), then pipeline
 * state, then any fields evalflow does not know, unchanged.
 */
export function exampleToJson(example: Example): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = example as Record<string, unknown>;
  for (const field of SPEC_FIELDS) {
    const value = source[field];
    if (OMIT_WHEN_EMPTY.has(field) && Array.isArray(value) && value.length === 0) continue;
    if (field === 'uncommitted_diff_contains_edit_history' && value !== true) continue;
    if (value === undefined || (value === null && OMIT_WHEN_NONE.has(field))) continue;
    out[field] = value;
  }
  if (example.prompt_inputs) out.prompt_inputs = example.prompt_inputs;
  if (example.prompt) out.prompt = example.prompt;
  if (example.predictions.length > 0) out.predictions = example.predictions.map(predictionToJson);
  if (example.score.length > 0) out.score = example.score.map(scoreToJson);
  if (example.qa.length > 0) out.qa = example.qa;
  const known = new Set<string>([...SPEC_FIELDS, ...STATE_FIELDS]);
  for (const [key, value] of Object.entries(source)) {
    if (!known.has(key) && value !== undefined) out[key] = value;
  }
  return out;
}

/** One JSONL line (no trailing newline). */
export function exampleToJsonLine(example: Example): string {
  return JSON.stringify(exampleToJson(example));
}

const OMIT_WHEN_EMPTY = new Set<string>(['tags', 'recently_opened_files', 'recently_viewed_files', 'human_feedback']);
const OMIT_WHEN_NONE = new Set<string>(['reasoning', 'rejected_patch', 'telemetry', 'rating']);

function predictionToJson(prediction: Prediction): Record<string, unknown> {
  return dropNullish(prediction, ['actual_patch', 'actual_cursor', 'error', 'cumulative_logprob', 'avg_logprob']);
}

function scoreToJson(score: PredictionScore): Record<string, unknown> {
  return dropNullish(score, [
    'cursor_distance',
    'cursor_exact_match',
    'kept_rate',
    'recall_rate',
    'kept_chars',
    'correctly_deleted_chars',
    'discarded_chars',
    'cumulative_logprob',
    'avg_logprob',
  ]);
}

function dropNullish(value: object, optional: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || (field === null && optional.includes(key))) continue;
    out[key] = field;
  }
  return out;
}
