import { describe, expect, it } from 'vitest';
import { fixed, formatEvalReport } from '../../../src/editprediction/report/evalReport.js';
import { ExampleSchema } from '../../../src/editprediction/format/schema.js';
import { scoredEprintln } from './scoredExamples.js';

describe('formatEvalReport', () => {
  it('prints the ep eval table, the TOTAL / AVERAGE row and the summary lines', async () => {
    const lines = formatEvalReport([await scoredEprintln()]);
    const rule = '─'.repeat(85);
    expect(lines.slice(0, 9)).toEqual([
      rule,
      'Example                                  DeltaChrF Brace      F1  Revert Cursor WrgER',
      rule,
      'zed--add-eprintln                          100.00     0  100.0%    0.0%     ±5      ',
      'zed--add-eprintln                            0.00     0    0.0%    0.0%      ✗      ',
      rule,
      'TOTAL / AVERAGE                             50.00   0.0   66.7%    0.0%     0% 0.00%',
      rule,
      'Delta chrF (β=0.5): TP=96, FP=0, FN=96, P=50.0%, R=50.0%',
    ]);
    expect(lines).toContain('Cursor: 0/2 exact matches (0%), avg distance: 5.0 bytes');
    expect(lines).toContain('Isolated whitespace changes: 0/2 (0.0%)');
    expect(lines).toContain('Kept rate: 50.0% avg (2 evaluated, kept chars: 14, correctly deleted chars: 3, discarded chars: 0)');
    expect(lines).toContain('Recall rate: 50.0% avg (2 evaluated)');
    expect(lines).toContain('Token changes (1/2 predictions produced a patch, 50.0% — table includes only those)');
  });

  it('shows at most 20 rows unless verbose, and truncates long names', async () => {
    const scored = await scoredEprintln();
    const many = Array.from({ length: 11 }, (_, index) => ({ ...scored, name: `${'x'.repeat(45)}-${index}` }));
    const lines = formatEvalReport(many);
    expect(lines.filter((line) => line.startsWith('xxx'))).toHaveLength(20);
    expect(lines).toContain(`${'... and 2 more'.padEnd(40)} (use --verbose to see all 22 examples)`);
    expect(lines.find((line) => line.startsWith('xxx'))?.slice(0, 41)).toBe(`${'x'.repeat(37)}... `);
    expect(formatEvalReport(many, { verbose: true }).filter((line) => line.startsWith('xxx'))).toHaveLength(22);
  });

  it('prints only the frame when nothing was scored', () => {
    const empty = ExampleSchema.parse({ repository_url: 'u', revision: 'r', cursor_path: 'a', cursor_position: 'a<|user_cursor|>', edit_history: '', expected_patches: [] });
    expect(formatEvalReport([empty])).toHaveLength(6);
  });
});

describe('fixed', () => {
  it('rounds exact ties to even as Rust formatting does', () => {
    expect(fixed(0.125, 2)).toBe('0.12');
    expect(fixed(0.375, 2)).toBe('0.38');
    expect(fixed(12.5, 0)).toBe('12');
    expect(fixed(66.66666, 1)).toBe('66.7');
  });
});
