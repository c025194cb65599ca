import { describe, expect, it } from 'vitest';
import { computeCursorExcerpt, computeExcerptRanges } from '../../../src/editprediction/predict/excerptRanges.js';

/** `count` lines of `width` bytes each, every one ending with LF. */
const lines = (count: number, width: number) => Array.from({ length: count }, (_, row) => String(row).padStart(width, '.')).join('\n') + '\n';

describe('computeCursorExcerpt', () => {
  it('takes the whole file when it fits the 8192-token budget', () => {
    expect(computeCursorExcerpt('a\nb\nc\n', 2)).toEqual({ startRow: 0, endRow: 3, range: { start: 0, end: 6 }, cursorOffsetInExcerpt: 2 });
  });

  it('grows symmetrically, one line down then one up, until the budget is spent', () => {
    // 300-byte lines are 100 tokens: 8192 − 100 leaves room for 80 more lines, 40 each way.
    const text = lines(200, 300);
    const cursor = 100 * 301 + 5;
    const window = computeCursorExcerpt(text, cursor);
    expect(window).toMatchObject({ startRow: 60, endRow: 140, range: { start: 60 * 301, end: 140 * 301 + 300 } });
    expect(window.cursorOffsetInExcerpt).toBe(cursor - 60 * 301);
  });
});

describe('computeExcerptRanges', () => {
  it('computes editable and context ranges line-wise from token budgets', () => {
    // 30-byte lines (10 tokens). editable_150: 112 tokens symmetric (rows 45–55), the rest
    // line-wise up first (43–57); 350 context tokens then reach rows 25–74.
    const ranges = computeExcerptRanges(lines(100, 30), 50 * 31 + 3);
    expect(ranges.editable_150).toEqual({ start: 43 * 31, end: 57 * 31 + 30 });
    expect(ranges.editable_150_context_350).toEqual({ start: 25 * 31, end: 74 * 31 + 30 });
    expect(Object.keys(ranges)).toEqual([
      'editable_150',
      'editable_180',
      'editable_350',
      'editable_512',
      'editable_150_context_350',
      'editable_180_context_350',
      'editable_350_context_150',
      'editable_350_context_512',
      'editable_350_context_1024',
      'context_4096',
      'context_8192',
    ]);
  });

  it('covers a small excerpt entirely', () => {
    const ranges = computeExcerptRanges('fn a() {}\nfn b() {}', 3);
    expect(ranges.editable_180).toEqual({ start: 0, end: 19 });
    expect(ranges.context_8192).toEqual({ start: 0, end: 19 });
  });
});
