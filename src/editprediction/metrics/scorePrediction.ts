import { applyDiffToString } from '../replay/applyDiff.js';
import type { EditEvent, PredictionScore } from '../format/schema.js';
import { bracesDisbalance } from './braces.js';
import { f1 } from './classification.js';
import { cursorMetrics } from './cursorMetrics.js';
import { DEFAULT_DELTA_CHRF_BETA, deltaChrFAgainst, prepareDeltaChrF } from './deltaChrF.js';
import type { DeltaChrF } from './deltaChrF.js';
import { isEditableRegionCorrect } from './editableRegion.js';
import { exactLinesMatch } from './exactLines.js';
import type { PreparedExpectedPatch } from './expectedPatches.js';
import { asF32 } from './float32.js';
import { hasIsolatedWhitespaceChanges } from './isolatedWhitespace.js';
import { keptRateAgainst, prepareKeptRate } from './keptRate.js';
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

/** What a scorer shares across the predictions of one example. */
export type ExampleScoringContext = Pick<PredictionScoringInput, 'originalText' | 'expectedPatches' | 'reversal' | 'beta'>;
/** What differs from one prediction of the example to the next. */
export type PredictionToScore = Pick<PredictionScoringInput, 'actualPatch' | 'actualCursor' | 'cumulativeLogprob' | 'avgLogprob'>;

/**
 * Score one prediction against every expected patch and keep the best (highest delta chrF,
 * ties broken by exact-lines F1, the later patch winning a full tie as Rust's `max_by`
 * does); all content metrics then come from that patch. Returns Zed's `PredictionScore`.
 */
export function scorePrediction(input: PredictionScoringInput): PredictionScore {
  return createPredictionScorer(input)(input);
}

/**
 * A scorer for the predictions of one example: what depends only on the excerpt and the
 * expected patches (their n-gram changes, token units and LCS with the excerpt) is computed
 * once and shared, so each further prediction costs only its own side.
 */
export function createPredictionScorer(context: ExampleScoringContext): (prediction: PredictionToScore) => PredictionScore {
  const beta = context.beta ?? DEFAULT_DELTA_CHRF_BETA;
  const expectedPatches: PreparedExpectedPatch[] =
    context.expectedPatches.length > 0 ? context.expectedPatches : [{ patch: '', text: context.originalText, cursorEditableRegionOffset: undefined }];
  const references = expectedPatches.map((expected) => ({
    expected,
    chrF: prepareDeltaChrF(context.originalText, expected.text),
    kept: prepareKeptRate(context.originalText, expected.text),
  }));
  const originalBraces = bracesDisbalance(context.originalText);

  return (input) => {
    const actualPatch = input.actualPatch ?? '';
    let actualText: string;
    try {
      actualText = applyDiffToString(actualPatch, context.originalText);
    } catch {
      actualText = context.originalText;
    }

    let best: { reference: (typeof references)[number]; chrF: DeltaChrF; linesF1: number } | undefined;
    for (const reference of references) {
      const chrF = deltaChrFAgainst(reference.chrF, actualText, beta);
      const linesF1 = f1(exactLinesMatch(reference.expected.patch, actualPatch));
      if (!best || chrF.score > best.chrF.score || (chrF.score === best.chrF.score && linesF1 >= best.linesF1)) {
        best = { reference, chrF, linesF1 };
      }
    }
    const { reference, chrF } = best as NonNullable<typeof best>;
    const expected = reference.expected;
    const lines = exactLinesMatch(expected.patch, actualPatch);
    const kept = keptRateAgainst(reference.kept, actualText);
    const tokens = countPatchTokenChanges(actualPatch);
    const actualCursor = input.actualCursor ? (input.actualCursor.editableRegionOffset ?? 0) : undefined;
    const cursor = cursorMetrics(expected.cursorEditableRegionOffset, actualCursor);
    const reversal = context.reversal
      ? predictionReversalRatio(context.originalText, context.reversal.events, context.reversal.excerptStartRow, actualText, context.reversal.cursorPath)
      : 0;

    return {
      delta_chr_f: asF32(chrF.score),
      delta_chr_f_true_positives: chrF.counts.truePositives,
      delta_chr_f_false_positives: chrF.counts.falsePositives,
      delta_chr_f_false_negatives: chrF.counts.falseNegatives,
      delta_chr_f_precision: chrF.precision,
      delta_chr_f_recall: chrF.recall,
      delta_chr_f_beta: chrF.beta,
      braces_disbalance: Math.max(bracesDisbalance(actualText) - originalBraces, 0),
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
  };
}
