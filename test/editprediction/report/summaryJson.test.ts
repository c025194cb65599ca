import { describe, expect, it } from 'vitest';
import { summaryJson } from '../../../src/editprediction/report/summaryJson.js';
import { scoredEprintln } from './scoredExamples.js';

describe('summaryJson', () => {
  it('uses Zed’s summary keys, in order, with micro-averaged exact lines', async () => {
    const summary = summaryJson([await scoredEprintln()]);
    expect(Object.keys(summary)).toEqual([
      'total_examples',
      'avg_delta_chr_f',
      'delta_chr_f_beta',
      'delta_chr_f_true_positives',
      'delta_chr_f_false_positives',
      'delta_chr_f_false_negatives',
      'delta_chr_f_precision',
      'delta_chr_f_recall',
      'avg_braces_disbalance',
      'exact_lines_true_positives',
      'exact_lines_false_positives',
      'exact_lines_false_negatives',
      'exact_lines_precision',
      'exact_lines_recall',
      'exact_lines_f1',
      'avg_reversal_ratio',
      'cursor_exact_match_rate',
      'cursor_avg_distance',
      'cursor_total_evaluated',
      'wrong_editable_region_rate',
      'isolated_whitespace_rate',
      'avg_kept_rate',
      'avg_recall_rate',
      'total_kept_chars',
      'total_correctly_deleted_chars',
      'total_discarded_chars',
    ]);
    // Exact lines: 2 TP from the expected-patch prediction, 2 FN from the no-op → P 1, R 1/2.
    expect(summary).toMatchObject({
      total_examples: 2,
      avg_delta_chr_f: 50,
      exact_lines_true_positives: 2,
      exact_lines_false_negatives: 2,
      exact_lines_precision: 1,
      exact_lines_recall: 0.5,
      cursor_exact_match_rate: 0,
      cursor_avg_distance: 5,
      cursor_total_evaluated: 2,
      avg_kept_rate: 0.5,
    });
    expect(summary.exact_lines_f1).toBeCloseTo(2 / 3, 12);
  });

  it('leaves optional keys out and writes isolated_whitespace_rate as null when nothing was scored', () => {
    expect(summaryJson([])).toEqual({
      total_examples: 0,
      avg_delta_chr_f: 0,
      delta_chr_f_beta: 0,
      delta_chr_f_true_positives: 0,
      delta_chr_f_false_positives: 0,
      delta_chr_f_false_negatives: 0,
      delta_chr_f_precision: 0,
      delta_chr_f_recall: 0,
      avg_braces_disbalance: 0,
      exact_lines_true_positives: 0,
      exact_lines_false_positives: 0,
      exact_lines_false_negatives: 0,
      exact_lines_precision: 0,
      exact_lines_recall: 0,
      exact_lines_f1: 0,
      avg_reversal_ratio: 0,
      isolated_whitespace_rate: null,
    });
  });
});
