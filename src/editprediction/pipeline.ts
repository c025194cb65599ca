import { FormatError } from '../errors.js';
import { extractCursorFromPatch } from './format/cursorMarkers.js';
import { computeCursorExcerpt, computeExcerptRanges } from './predict/excerptRanges.js';
import { prepareExpectedPatches } from './metrics/expectedPatches.js';
import type { PreparedExpectedPatch } from './metrics/expectedPatches.js';
import { DEFAULT_DELTA_CHRF_BETA } from './metrics/deltaChrF.js';
import { createPredictionScorer } from './metrics/scorePrediction.js';
import { extractEditableRegion } from './predict/prompt.js';
import type { EditPredictionProvider } from './predict/provider.js';
import { replayExample } from './replay/replayExample.js';
import type { ReplayOptions } from './replay/replayExample.js';
import type { Example, PromptInputs } from './format/schema.js';
import { byteToIndex, indexToByte, utf8Length } from './format/rustStr.js';

/**
 * The per-example steps of `ep load-project`, `predict` and `score`, as plain functions the
 * batch workflow's activities will call. Each takes and returns a JSON-serialisable example
 * and is idempotent: a step whose output is already present returns the example unchanged.
 */

/** Replay the example and fill `prompt_inputs` in Zed's latest (`ZetaPromptInput`) shape. */
export async function loadProject(example: Example, options: ReplayOptions & { force?: boolean }): Promise<Example> {
  if (!options.force && example.prompt_inputs?.cursor_excerpt !== undefined) return example;
  const replay = await replayExample(example, options);
  const window = computeCursorExcerpt(replay.cursorFileText, replay.cursorOffset);
  const text = replay.cursorFileText;
  const excerpt = text.slice(byteToIndex(text, window.range.start), byteToIndex(text, window.range.end));
  const promptInputs: PromptInputs = {
    cursor_path: example.cursor_path,
    cursor_excerpt: excerpt,
    cursor_offset_in_excerpt: window.cursorOffsetInExcerpt,
    excerpt_start_row: window.startRow,
    events: replay.events,
    related_files: example.prompt_inputs?.related_files ?? null,
    active_buffer_diagnostics: [],
    excerpt_ranges: computeExcerptRanges(excerpt, window.cursorOffsetInExcerpt),
    syntax_ranges: null,
    in_open_source_repo: false,
    can_collect_data: false,
    repo_url: null,
  };
  return { ...example, prompt_inputs: promptInputs };
}

/** Ask the provider for a prediction unless the example already has predictions (as `ep predict`). */
export async function predictExample(example: Example, provider: EditPredictionProvider): Promise<Example> {
  if (example.predictions.length > 0) return example;
  const outcome = await provider.predict(example);
  return { ...example, predictions: [outcome.prediction], ...(outcome.prompt ? { prompt: outcome.prompt } : {}) };
}

export interface ScoreOptions {
  /** Delta chrF β (default 0.5, Zed's latest). */
  beta?: number;
}

/**
 * Score every prediction against all expected patches on the prompt's cursor excerpt (as Zed's
 * latest metrics do; see *Metrics* in docs/edit-prediction.md) and store one `score` entry per
 * prediction. Fails when `prompt_inputs` is missing or an
 * expected patch does not apply to the excerpt ("Expected patch did not apply").
 */
export function scoreExample(example: Example, options: ScoreOptions = {}): Example {
  const inputs = example.prompt_inputs;
  if (!inputs || inputs.cursor_excerpt === undefined) {
    throw new FormatError(`${example.name}: prompt_inputs is required for scoring; load the project (or include prompt_inputs in the JSON) first`);
  }
  const originalText = inputs.cursor_excerpt;
  const oldEditableRegion = example.prompt?.provider.startsWith('openai') ? extractEditableRegion(example.prompt.input) : undefined;
  let expected: PreparedExpectedPatch[];
  try {
    expected = prepareExpectedPatches(example.expected_patches.map(extractCursorFromPatch), originalText, oldEditableRegion);
  } catch (error) {
    throw new FormatError(`Expected patch did not apply for ${example.name}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const scorer = createPredictionScorer({
    originalText,
    expectedPatches: expected,
    reversal: { events: inputs.events ?? [], excerptStartRow: inputs.excerpt_start_row ?? undefined, cursorPath: example.cursor_path },
    beta: options.beta ?? DEFAULT_DELTA_CHRF_BETA,
  });
  const score = example.predictions.map((prediction) =>
    scorer({
      actualPatch: prediction.actual_patch ?? undefined,
      actualCursor: prediction.actual_cursor
        ? { row: prediction.actual_cursor.row, editableRegionOffset: prediction.actual_cursor.editable_region_offset ?? undefined }
        : undefined,
      cumulativeLogprob: prediction.cumulative_logprob ?? undefined,
      avgLogprob: prediction.avg_logprob ?? undefined,
    }),
  );
  return { ...example, score };
}

/**
 * Prompt inputs for an example scored without replay: the decoded cursor excerpt of the
 * spec itself as the excerpt (no events, row 0). Useful when the repository is unavailable
 * and the expected patches fit inside the example's own excerpt.
 */
export function promptInputsFromSpec(example: Example, decoded: { excerpt: string; offset: number }): PromptInputs {
  const offset = Math.min(decoded.offset, utf8Length(decoded.excerpt));
  return {
    cursor_path: example.cursor_path,
    cursor_excerpt: decoded.excerpt,
    cursor_offset_in_excerpt: indexToByte(decoded.excerpt, byteToIndex(decoded.excerpt, offset)),
    excerpt_start_row: 0,
    events: [],
    related_files: null,
    active_buffer_diagnostics: [],
    excerpt_ranges: computeExcerptRanges(decoded.excerpt, offset),
    syntax_ranges: null,
    in_open_source_repo: false,
    can_collect_data: false,
    repo_url: null,
  };
}
