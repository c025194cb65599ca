import { f1 } from '../metrics/classification.js';
import type { Example, PredictionScore } from '../format/schema.js';
import { summaryJson } from './summaryJson.js';

/** Rows shown before "... and N more" unless verbose (as `ep eval`). */
const MAX_ROWS = 20;
const NAME_WIDTH = 40;
/** Zed's 101-column table without the two QA columns evalflow does not compute. */
const LINE_WIDTH = 85;

/**
 * The `ep eval` report as lines of text: the table `Example DeltaChrF Brace F1 Revert Cursor
 * WrgER` (one row per prediction, at most 20 unless `verbose`), the `TOTAL / AVERAGE` row,
 * then the delta chrF TP/FP/FN line, cursor, isolated whitespace, kept/recall rates and token
 * change percentiles. Numbers are formatted as Rust's `{:.N}` does (ties to even).
 */
export function formatEvalReport(examples: Example[], options: { verbose?: boolean } = {}): string[] {
  const separator = '─'.repeat(LINE_WIDTH);
  const out = [separator, row(['Example', 'DeltaChrF', 'Brace', 'F1', 'Revert', 'Cursor', 'WrgER']), separator];
  let printed = 0;
  let skipped = 0;
  const inserted: number[] = [];
  const deleted: number[] = [];
  for (const example of examples) {
    example.score.forEach((score, index) => {
      if (options.verbose || printed < MAX_ROWS) {
        out.push(
          row([
            truncateName(example.name),
            fixed(score.delta_chr_f, 2),
            String(score.braces_disbalance),
            `${fixed(f1(linesCounts(score)) * 100, 1)}%`,
            `${fixed(score.reversal_ratio * 100, 1)}%`,
            cursorCell(score),
            score.wrong_editable_region === true ? '✗' : '',
          ]),
        );
        printed += 1;
      } else {
        skipped += 1;
      }
      const patch = example.predictions[index]?.actual_patch;
      if (patch !== undefined && patch !== null && patch !== '') {
        inserted.push(score.inserted_tokens);
        deleted.push(score.deleted_tokens);
      }
    });
  }
  if (skipped > 0) out.push(`${`... and ${skipped} more`.padEnd(NAME_WIDTH)} (use --verbose to see all ${printed + skipped} examples)`);
  out.push(separator);

  const summary = summaryJson(examples);
  const total = summary.total_examples;
  if (total > 0) {
    out.push(
      row([
        'TOTAL / AVERAGE',
        fixed(summary.avg_delta_chr_f, 2),
        fixed(summary.avg_braces_disbalance, 1),
        `${fixed(summary.exact_lines_f1 * 100, 1)}%`,
        `${fixed(summary.avg_reversal_ratio * 100, 1)}%`,
        summary.cursor_exact_match_rate === undefined ? '-' : `${fixed(summary.cursor_exact_match_rate * 100, 0)}%`,
        summary.wrong_editable_region_rate === undefined ? '-' : `${fixed(summary.wrong_editable_region_rate * 100, 2)}%`,
      ]),
    );
    out.push(separator);
    out.push(
      `Delta chrF (β=${fixed(summary.delta_chr_f_beta, 1)}): TP=${summary.delta_chr_f_true_positives}, FP=${summary.delta_chr_f_false_positives}, ` +
        `FN=${summary.delta_chr_f_false_negatives}, P=${fixed(summary.delta_chr_f_precision * 100, 1)}%, R=${fixed(summary.delta_chr_f_recall * 100, 1)}%`,
    );
    const scores = examples.flatMap((example) => example.score);
    const evaluated = scores.filter((score) => score.cursor_exact_match !== undefined && score.cursor_exact_match !== null);
    if (summary.cursor_avg_distance !== undefined) {
      const exact = evaluated.filter((score) => score.cursor_exact_match === true).length;
      out.push(`Cursor: ${exact}/${evaluated.length} exact matches (${fixed((exact / evaluated.length) * 100, 0)}%), avg distance: ${fixed(summary.cursor_avg_distance, 1)} bytes`);
    }
    const isolated = scores.filter((score) => score.has_isolated_whitespace_changes).length;
    out.push(`Isolated whitespace changes: ${isolated}/${total} (${fixed((isolated / total) * 100, 1)}%)`);
    const keptCount = scores.filter((score) => score.kept_rate !== undefined && score.kept_rate !== null).length;
    if (summary.avg_kept_rate !== undefined) {
      out.push(
        `Kept rate: ${fixed(summary.avg_kept_rate * 100, 1)}% avg (${keptCount} evaluated, kept chars: ${summary.total_kept_chars ?? 0}, ` +
          `correctly deleted chars: ${summary.total_correctly_deleted_chars ?? 0}, discarded chars: ${summary.total_discarded_chars ?? 0})`,
      );
    }
    const recallCount = scores.filter((score) => score.recall_rate !== undefined && score.recall_rate !== null).length;
    if (summary.avg_recall_rate !== undefined) out.push(`Recall rate: ${fixed(summary.avg_recall_rate * 100, 1)}% avg (${recallCount} evaluated)`);
    if (inserted.length > 0) out.push(...tokenTable(inserted, deleted, total));
  }
  out.push('', '');
  return out;
}

/** Rust's `{:.N}`: like toFixed, but an exact tie rounds to even. */
export function fixed(value: number, digits: number): string {
  const scale = 10 ** digits;
  const scaled = value * scale;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5 && floor % 2 === 0) return (floor / scale).toFixed(digits);
  return value.toFixed(digits);
}

function row(cells: [string, string, string, string, string, string, string]): string {
  const [name, chrF, braces, lines, revert, cursor, wrongRegion] = cells;
  return [name.padEnd(NAME_WIDTH), chrF.padStart(8), braces.padStart(5), lines.padStart(7), revert.padStart(7), cursor.padStart(6), wrongRegion.padStart(5)].join(' ');
}

function cursorCell(score: PredictionScore): string {
  if (score.cursor_exact_match === true) return '✓';
  if (score.cursor_exact_match === false) return score.cursor_distance !== undefined && score.cursor_distance !== null ? `±${score.cursor_distance}` : '✗';
  return '-';
}

function linesCounts(score: PredictionScore) {
  return { truePositives: score.exact_lines_tp, falsePositives: score.exact_lines_fp, falseNegatives: score.exact_lines_fn };
}

function truncateName(name: string): string {
  const chars = Array.from(name);
  return chars.length <= NAME_WIDTH ? name : `${chars.slice(0, NAME_WIDTH - 3).join('')}...`;
}

function tokenTable(inserted: number[], deleted: number[], total: number): string[] {
  const sortedInserted = [...inserted].sort((a, b) => a - b);
  const sortedDeleted = [...deleted].sort((a, b) => a - b);
  const totals = inserted.map((value, index) => value + (deleted[index] as number)).sort((a, b) => a - b);
  const line = (label: string, values: number[]) =>
    [label.padEnd(20), ...[25, 50, 75, 90, 99].map((p) => String(percentile(values, p)).padStart(8))].join(' ');
  return [
    '',
    `Token changes (${inserted.length}/${total} predictions produced a patch, ${fixed((inserted.length / total) * 100, 1)}% — table includes only those)`,
    ['', 'p25', 'p50', 'p75', 'p90', 'p99'].map((cell, index) => (index === 0 ? cell.padEnd(20) : cell.padStart(8))).join(' '),
    '─'.repeat(LINE_WIDTH),
    line('Inserted tokens', sortedInserted),
    line('Deleted tokens', sortedDeleted),
    line('Total tokens', totals),
  ];
}

/** Nearest-rank percentile: index round(p/100 · (n − 1)) of the sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.round((p / 100) * (sorted.length - 1));
  return sorted[Math.min(index, sorted.length - 1)] as number;
}
