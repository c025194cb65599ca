import { applyDiffToString } from '../replay/applyDiff.js';
import type { EditEvent, PredictionScore } from '../format/schema.js';
import { bracesDisbalance } from './braces.js';
import { f1 } from './classification.js';
import { cursorMetrics } from './cursorMetrics.js';
import { DEFAULT_DELTA_CHRF_BETA, deltaChrF } from './deltaChrF.js';
import type { DeltaChrF } from './deltaChrF.js';
import { isEditableRegionCorrect } from './editableRegion.js';
import { exactLinesMatch } from './exactLines.js';
import type { PreparedExpectedPatch } from './expectedPatches.js';
import { asF32 } from './float32.js';
import { hasIsolatedWhitespaceChanges } from './isolatedWhitespace.js';
import { computeKeptRate } from './keptRate.js';
import { predictionReversalRatio } from './reversal.js';
import { countPatchTokenChanges } from './tokenChanges.js';

export interface PredictionScoringInput {
  /** The text predictions are scored on: the prompt's cursor excerpt, as Zed's latest metrics do. */
  originalText: string;
  expectedPatches: PreparedExpectedPatch[];
  /** The predicted patch; `undefined` when the prediction produced none (scored as no change). */
  actualPatch: string | undefined;
  actualCursor?: { row: number; editableRegionOffset: number | undefined } | undefined;
  /** Edit history context for the reversal ratio (0 without it). */
  reversal?: { events: EditEvent[]; excerptStartRow: number | undefined; cursorPath: string } | undefined;
  cumulativeLogprob?: number | undefined;
  avgLogprob?: number | undefined;
  /** Delta chrF β (default 0.5, Zed's latest). */
  beta?: number;
}

/**
 * Score one prediction against every expected patch and keep the best (highest delta chrF,
 * ties broken by exact-lines F1, the later patch winning a full tie as Rust's `max_by`
 * does); all content metrics then come from that patch. Returns Zed's `PredictionScore`.
 */
export function scorePrediction(input: PredictionScoringInput): PredictionScore {
  const actualPatch = input.actualPatch ?? '';
  let actualText: string;
  try {
    actualText = applyDiffToString(actualPatch, input.originalText);
  } catch {
    actualText = input.originalText;
  }
  const expectedPatches: PreparedExpectedPatch[] =
    input.expectedPatches.length > 0 ? input.expectedPatches : [{ patch: '', text: input.originalText, cursorEditableRegionOffset: undefined }];

  let best: { expected: PreparedExpectedPatch; chrF: DeltaChrF; linesF1: number } | undefined;
  for (const expected of expectedPatches) {
    const chrF = deltaChrF(input.originalText, expected.text, actualText, input.beta ?? DEFAULT_DELTA_CHRF_BETA);
    const linesF1 = f1(exactLinesMatch(expected.patch, actualPatch));
    if (!best || chrF.score > best.chrF.score || (chrF.score === best.chrF.score && linesF1 >= best.linesF1)) {
      best = { expected, chrF, linesF1 };
    }
  }
  const { expected, chrF } = best as NonNullable<typeof best>;
  const lines = exactLinesMatch(expected.patch, actualPatch);
  const kept = computeKeptRate(input.originalText, actualText, expected.text);
  const tokens = countPatchTokenChanges(actualPatch);
  const actualCursor = input.actualCursor ? (input.actualCursor.editableRegionOffset ?? 0) : undefined;
  const cursor = cursorMetrics(expected.cursorEditableRegionOffset, actualCursor);
  const reversal = input.reversal
    ? predictionReversalRatio(input.originalText, input.reversal.events, input.reversal.excerptStartRow, actualText, input.reversal.cursorPath)
    : 0;

  return {
    delta_chr_f: asF32(chrF.score),
    delta_chr_f_true_positives: chrF.counts.truePositives,
    delta_chr_f_false_positives: chrF.counts.falsePositives,
    delta_chr_f_false_negatives: chrF.counts.falseNegatives,
    delta_chr_f_precision: chrF.precision,
    delta_chr_f_recall: chrF.recall,
    delta_chr_f_beta: chrF.beta,
    braces_disbalance: Math.max(bracesDisbalance(actualText) - bracesDisbalance(input.originalText), 0),
    exact_lines_tp: lines.truePositives,
    exact_lines_fp: lines.falsePositives,
    exact_lines_fn: lines.falseNegatives,
    reversal_ratio: asF32(reversal),
    cursor_distance: cursor.distance,
    cursor_exact_match: cursor.exactMatch,
    wrong_editable_region: input.actualPatch === undefined ? null : !isEditableRegionCorrect(input.actualPatch),
    has_isolated_whitespace_changes:
      input.actualPatch !== undefined && hasIsolatedWhitespaceChanges(input.actualPatch, input.actualCursor?.row),
    inserted_tokens: tokens.insertedTokens,
    deleted_tokens: tokens.deletedTokens,
    kept_rate: kept.keptRate,
    recall_rate: kept.recallRate,
    kept_chars: kept.keptChars,
    correctly_deleted_chars: kept.correctlyDeletedChars,
    discarded_chars: kept.discardedChars,
    cumulative_logprob: input.cumulativeLogprob,
    avg_logprob: input.avgLogprob,
  };
}
