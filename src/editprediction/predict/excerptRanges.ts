import type { ByteRange } from '../format/schema.js';
import { utf8Length } from '../format/rustStr.js';

/** Zed's token estimate: 3 bytes per token, at least one token per line. */
const BYTES_PER_TOKEN = 3;
/** Budget of the cursor excerpt that becomes `prompt_inputs.cursor_excerpt`. */
const CURSOR_EXCERPT_TOKENS = 8192;

interface Lines {
  /** Byte length of each line, without its line end (LF, or the CRLF of a CRLF line). */
  lengths: number[];
  /** Byte offset where each line starts. */
  starts: number[];
  total: number;
}

/** The cursor excerpt of a file: whole lines around the cursor, as Zed computes it. */
export interface CursorExcerptWindow {
  startRow: number;
  endRow: number;
  /** Byte range of the excerpt in the file (from the start of `startRow` to the end of `endRow`, its line end excluded). */
  range: ByteRange;
  cursorOffsetInExcerpt: number;
}

/**
 * Zed's `compute_cursor_excerpt`: the largest line-wise symmetric region around the cursor's
 * row within an 8192-token budget, growing one line down then one line up. Offsets are bytes.
 * A CRLF counts as the line end, as LF does, so a CRLF file gets the rows its LF twin gets.
 */
export function computeCursorExcerpt(text: string, cursorOffset: number): CursorExcerptWindow {
  const lines = lineTable(text);
  const cursorRow = rowAt(lines, cursorOffset);
  const [startRow, endRow] = expandSymmetric(lines, cursorRow, CURSOR_EXCERPT_TOKENS);
  const range = rowRange(lines, startRow, endRow);
  return { startRow, endRow, range, cursorOffsetInExcerpt: cursorOffset - range.start };
}

/**
 * Zed's legacy `excerpt_ranges` for an excerpt (editable and context ranges at several token
 * budgets, bytes relative to the excerpt). Zed widens ranges to syntax nodes with
 * tree-sitter; evalflow has no parser, so this is the line-wise part of that algorithm
 * (what Zed does when no syntax node fits).
 */
export function computeExcerptRanges(excerpt: string, cursorOffset: number): Record<string, ByteRange> {
  const lines = lineTable(excerpt);
  const compute = (editableTokens: number, contextTokens: number) => {
    const cursorRow = rowAt(lines, cursorOffset);
    const initial = Math.floor((editableTokens * 3) / 4);
    const [start, end, remaining] = expandSymmetric(lines, cursorRow, initial);
    const [editStart, editEnd] = expandLinewise(lines, start, end, remaining + (editableTokens - initial), true);
    const [contextStart, contextEnd] = expandLinewise(lines, editStart, editEnd, contextTokens, true);
    return [rowRange(lines, editStart, editEnd), rowRange(lines, contextStart, contextEnd)] as const;
  };
  const [editable150, editable150Context350] = compute(150, 350);
  const [editable180, editable180Context350] = compute(180, 350);
  const [editable350, editable350Context150] = compute(350, 150);
  const [editable512] = compute(512, 0);
  return {
    editable_150: editable150,
    editable_180: editable180,
    editable_350: editable350,
    editable_512: editable512,
    editable_150_context_350: editable150Context350,
    editable_180_context_350: editable180Context350,
    editable_350_context_150: editable350Context150,
    editable_350_context_512: compute(350, 512)[1],
    editable_350_context_1024: compute(350, 1024)[1],
    context_4096: compute(350, 4096)[1],
    context_8192: compute(350, 8192)[1],
  };
}

function lineTable(text: string): Lines {
  const lengths: number[] = [];
  const starts: number[] = [];
  let at = 0;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const length = utf8Length(line);
    const crlf = index < lines.length - 1 && line.endsWith('\r');
    starts.push(at);
    lengths.push(crlf ? length - 1 : length);
    at += length + 1;
  });
  return { lengths, starts, total: utf8Length(text) };
}

function rowAt(lines: Lines, offset: number): number {
  let row = 0;
  while (row + 1 < lines.starts.length && (lines.starts[row + 1] as number) <= offset) row += 1;
  return row;
}

function rowRange(lines: Lines, startRow: number, endRow: number): ByteRange {
  return { start: lines.starts[startRow] as number, end: (lines.starts[endRow] as number) + (lines.lengths[endRow] as number) };
}

function lineTokens(lines: Lines, row: number): number {
  return Math.max(Math.floor((lines.lengths[row] as number) / BYTES_PER_TOKEN), 1);
}

/** Grow from the cursor row, one line down then one line up, while lines fit the budget. */
function expandSymmetric(lines: Lines, cursorRow: number, budget: number): [number, number, number] {
  let start = cursorRow;
  let end = cursorRow;
  let remaining = Math.max(budget - lineTokens(lines, cursorRow), 0);
  const maxRow = lines.lengths.length - 1;
  for (;;) {
    const canUp = start > 0;
    const canDown = end < maxRow;
    if (remaining === 0 || (!canUp && !canDown)) break;
    if (canDown) {
      const tokens = lineTokens(lines, end + 1);
      if (tokens > remaining) break;
      end += 1;
      remaining -= tokens;
    }
    if (canUp && remaining > 0) {
      const tokens = lineTokens(lines, start - 1);
      if (tokens > remaining) break;
      start -= 1;
      remaining -= tokens;
    }
  }
  return [start, end, remaining];
}

/** Grow line-wise, preferred direction first, until nothing more fits. */
function expandLinewise(lines: Lines, startRow: number, endRow: number, budget: number, preferUp: boolean): [number, number] {
  let start = startRow;
  let end = endRow;
  let remaining = budget;
  const maxRow = lines.lengths.length - 1;
  const tryUp = () => {
    if (start === 0) return false;
    const tokens = lineTokens(lines, start - 1);
    if (tokens > remaining) return false;
    start -= 1;
    remaining -= tokens;
    return true;
  };
  const tryDown = () => {
    if (end >= maxRow || remaining === 0) return false;
    const tokens = lineTokens(lines, end + 1);
    if (tokens > remaining) return false;
    end += 1;
    remaining -= tokens;
    return true;
  };
  for (;;) {
    if (remaining === 0 || (start === 0 && end >= maxRow)) break;
    const first = preferUp ? tryUp() : tryDown();
    const second = preferUp ? tryDown() : tryUp();
    if (!first && !second) break;
  }
  return [start, end];
}
