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

describe('excerpt windows of CRLF and mixed files', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  it('gives a CRLF file the rows of its LF twin, the excerpt ending before the last row’s CRLF', () => {
    // 299-byte lines are 99 tokens; counting the CR as content would make them 300 bytes, 100
    // tokens. 8192 − 99 leaves room for 81 lines of 99 tokens: 41 down and 40 up, rows 60–141.
    const text = lines(200, 299);
    const cursorRow = 100;
    const lfWindow = computeCursorExcerpt(text, cursorRow * 300 + 5);
    const crlfWindow = computeCursorExcerpt(crlf(text), cursorRow * 301 + 5);
    expect(lfWindow).toMatchObject({ startRow: 60, endRow: 141 });
    expect(crlfWindow).toMatchObject({ startRow: 60, endRow: 141, cursorOffsetInExcerpt: 40 * 301 + 5 });
    expect(crlfWindow.range).toEqual({ start: 60 * 301, end: 141 * 301 + 299 });
    expect(crlf(text).slice(crlfWindow.range.start, crlfWindow.range.end)).toBe(crlf(text.slice(lfWindow.range.start, lfWindow.range.end)));
  });

  it('computes the editable and context ranges of a CRLF excerpt on the LF twin’s rows', () => {
    const text = lines(100, 29);
    const lfRanges = computeExcerptRanges(text, 50 * 30 + 3);
    const crlfRanges = computeExcerptRanges(crlf(text), 50 * 31 + 3);
    for (const [key, range] of Object.entries(lfRanges)) {
      const crlfRange = crlfRanges[key]!;
      expect(crlf(text).slice(crlfRange.start, crlfRange.end), key).toBe(crlf(text.slice(range!.start, range!.end)));
    }
    // 29-byte lines are 9 tokens (10 if the CR counted). editable_150: 112 tokens symmetric from
    // row 50 (rows 45–56, 4 left), then 42 line-wise, up first: rows 43–58.
    expect(crlfRanges.editable_150).toEqual({ start: 43 * 31, end: 58 * 31 + 29 });
  });

  it('keeps a lone CR as part of its line', () => {
    expect(computeCursorExcerpt('a\rb\nc\r', 0)).toEqual({ startRow: 0, endRow: 1, range: { start: 0, end: 6 }, cursorOffsetInExcerpt: 0 });
  });
});
