/**
 * The score of a prediction whose new line ends in LF where the expected one ends in CRLF,
 * worked out by hand, not with the code under test: original O = "a\r\n", expected
 * E = "a\r\nb\r\n", actual A = "a\r\nb\n".
 */
export const LF_LINE_ON_CRLF_SCORE = {
  // deltaChrF(O, E, A): P = 5/12, R = 5/18, score 2500/66 as an f32.
  delta_chr_f: 37.878788,
  delta_chr_f_true_positives: 5,
  delta_chr_f_false_positives: 4,
  delta_chr_f_false_negatives: 10,
  // "+b" is not "+b\r".
  exact_lines_tp: 0,
  exact_lines_fp: 1,
  exact_lines_fn: 1,
  // Of the prediction's new [b, "\n"] only b is the reference's: kept 1 of 2, recalled 1 of 3.
  kept_rate: 0.5,
  recall_rate: 1 / 3,
  kept_chars: 1,
  discarded_chars: 1,
  inserted_tokens: 1,
};
