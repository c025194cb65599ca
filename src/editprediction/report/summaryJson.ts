import { addCounts, f1, NO_COUNTS, precision, recall } from '../metrics/classification.js';
import { asF32 } from '../metrics/float32.js';
import type { Example, PredictionScore } from '../format/schema.js';

/**
 * Zed's `--summary-json` object, key for key. Means are over scored predictions;
 * `?` keys of Zed are left out when not computed (QA and context-coverage keys are never
 * computed by evalflow); `isolated_whitespace_rate` is always written, null when empty.
 */
export interface SummaryJson {
  total_examples: number;
  avg_delta_chr_f: number;
  delta_chr_f_beta: number;
  delta_chr_f_true_positives: number;
  delta_chr_f_false_positives: number;
  delta_chr_f_false_negatives: number;
  delta_chr_f_precision: number;
  delta_chr_f_recall: number;
  avg_braces_disbalance: number;
  exact_lines_true_positives: number;
  exact_lines_false_positives: number;
  exact_lines_false_negatives: number;
  exact_lines_precision: number;
  exact_lines_recall: number;
  exact_lines_f1: number;
  avg_reversal_ratio: number;
  cursor_exact_match_rate?: number;
  cursor_avg_distance?: number;
  cursor_total_evaluated?: number;
  wrong_editable_region_rate?: number;
  isolated_whitespace_rate: number | null;
  avg_kept_rate?: number;
  avg_recall_rate?: number;
  total_kept_chars?: number;
  total_correctly_deleted_chars?: number;
  total_discarded_chars?: number;
}

/** Every score of every example, in order (one per prediction). */
export function allScores(examples: Example[]): PredictionScore[] {
  return examples.flatMap((example) => example.score);
}

/** Aggregate the scores of all examples as Zed's `compute_summary` does. */
export function summaryJson(examples: Example[]): SummaryJson {
  const scores = allScores(examples);
  const n = scores.length;
  let chrF = NO_COUNTS;
  let lines = NO_COUNTS;
  for (const score of scores) {
    chrF = addCounts(chrF, { truePositives: score.delta_chr_f_true_positives, falsePositives: score.delta_chr_f_false_positives, falseNegatives: score.delta_chr_f_false_negatives });
    lines = addCounts(lines, { truePositives: score.exact_lines_tp, falsePositives: score.exact_lines_fp, falseNegatives: score.exact_lines_fn });
  }
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  const present = <T>(values: Array<T | null | undefined>) => values.filter((value): value is T => value !== null && value !== undefined);

  const cursorEvaluated = present(scores.map((score) => score.cursor_exact_match));
  const cursorDistances = present(scores.map((score) => score.cursor_distance));
  const wrongRegion = present(scores.map((score) => score.wrong_editable_region));
  const keptRates = present(scores.map((score) => score.kept_rate));
  const recallRates = present(scores.map((score) => score.recall_rate));
  const keptChars = present(scores.map((score) => score.kept_chars));
  const deletedChars = present(scores.map((score) => score.correctly_deleted_chars));
  const discardedChars = present(scores.map((score) => score.discarded_chars));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

  const summary: SummaryJson = {
    total_examples: n,
    avg_delta_chr_f: asF32(mean(scores.map((score) => score.delta_chr_f))),
    delta_chr_f_beta: scores[scores.length - 1]?.delta_chr_f_beta ?? 0,
    delta_chr_f_true_positives: chrF.truePositives,
    delta_chr_f_false_positives: chrF.falsePositives,
    delta_chr_f_false_negatives: chrF.falseNegatives,
    delta_chr_f_precision: mean(scores.map((score) => score.delta_chr_f_precision)),
    delta_chr_f_recall: mean(scores.map((score) => score.delta_chr_f_recall)),
    avg_braces_disbalance: asF32(mean(scores.map((score) => score.braces_disbalance))),
    exact_lines_true_positives: lines.truePositives,
    exact_lines_false_positives: lines.falsePositives,
    exact_lines_false_negatives: lines.falseNegatives,
    exact_lines_precision: precision(lines),
    exact_lines_recall: recall(lines),
    exact_lines_f1: f1(lines),
    avg_reversal_ratio: asF32(mean(scores.map((score) => score.reversal_ratio))),
    isolated_whitespace_rate: n === 0 ? null : asF32(scores.filter((score) => score.has_isolated_whitespace_changes).length / n),
  };
  if (cursorEvaluated.length > 0) {
    summary.cursor_exact_match_rate = asF32(cursorEvaluated.filter(Boolean).length / cursorEvaluated.length);
    summary.cursor_total_evaluated = cursorEvaluated.length;
  }
  if (cursorDistances.length > 0) summary.cursor_avg_distance = asF32(mean(cursorDistances));
  if (wrongRegion.length > 0) summary.wrong_editable_region_rate = asF32(wrongRegion.filter(Boolean).length / wrongRegion.length);
  if (keptRates.length > 0) summary.avg_kept_rate = mean(keptRates);
  if (recallRates.length > 0) summary.avg_recall_rate = mean(recallRates);
  if (keptChars.length > 0) summary.total_kept_chars = sum(keptChars);
  if (deletedChars.length > 0) summary.total_correctly_deleted_chars = sum(deletedChars);
  if (discardedChars.length > 0) summary.total_discarded_chars = sum(discardedChars);
  return orderKeys(summary);
}

/** Zed's serde field order, so the JSON text matches key for key. */
function orderKeys(summary: SummaryJson): SummaryJson {
  const order: Array<keyof SummaryJson> = [
    'total_examples', 'avg_delta_chr_f', 'delta_chr_f_beta', 'delta_chr_f_true_positives', 'delta_chr_f_false_positives',
    'delta_chr_f_false_negatives', 'delta_chr_f_precision', 'delta_chr_f_recall', 'avg_braces_disbalance',
    'exact_lines_true_positives', 'exact_lines_false_positives', 'exact_lines_false_negatives', 'exact_lines_precision',
    'exact_lines_recall', 'exact_lines_f1', 'avg_reversal_ratio', 'cursor_exact_match_rate', 'cursor_avg_distance',
    'cursor_total_evaluated', 'wrong_editable_region_rate', 'isolated_whitespace_rate', 'avg_kept_rate', 'avg_recall_rate',
    'total_kept_chars', 'total_correctly_deleted_chars', 'total_discarded_chars',
  ];
  const ordered: Record<string, unknown> = {};
  for (const key of order) if (summary[key] !== undefined) ordered[key] = summary[key];
  return ordered as unknown as SummaryJson;
}
