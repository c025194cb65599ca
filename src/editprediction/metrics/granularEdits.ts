import { diffSequences } from '../replay/sequenceDiff.js';
import { splitWithTerminators } from '../replay/unifiedDiff.js';
import { tokenize } from './tokenize.js';

/** One replacement: `old[start, end)` (UTF-16 indices into the old text) becomes `newText`. */
export interface GranularEdit {
  start: number;
  end: number;
  oldText: string;
  newText: string;
}

const MAX_TOKEN_DIFF_LENGTH = 512;
const MAX_TOKEN_DIFF_LINES = 8;

/**
 * Fine-grained edits old → new, as the reversal metric computes them: a line diff whose
 * small replaced hunks (≤ 8 lines, ≤ 512 bytes each side) are refined by a token diff, then
 * pure insertions/deletions hidden in a replacement reduced to character edits.
 */
export function granularEdits(oldText: string, newText: string): GranularEdit[] {
  return normalizeExtensionEdits(textDiff(oldText, newText));
}

function textDiff(oldText: string, newText: string): GranularEdit[] {
  const oldLines = splitWithTerminators(oldText);
  const newLines = splitWithTerminators(newText);
  const oldStarts = offsets(oldLines);
  const newStarts = offsets(newLines);
  const edits: GranularEdit[] = [];
  for (const block of diffSequences(oldLines, newLines, 'histogram')) {
    const oldStart = oldStarts[block.oldStart] as number;
    const oldEnd = oldStarts[block.oldEnd] as number;
    const newStart = newStarts[block.newStart] as number;
    const newEnd = newStarts[block.newEnd] as number;
    const oldPart = oldText.slice(oldStart, oldEnd);
    const newPart = newText.slice(newStart, newEnd);
    const refine =
      oldPart !== '' &&
      newPart !== '' &&
      Buffer.byteLength(oldPart) <= MAX_TOKEN_DIFF_LENGTH &&
      Buffer.byteLength(newPart) <= MAX_TOKEN_DIFF_LENGTH &&
      block.oldEnd - block.oldStart <= MAX_TOKEN_DIFF_LINES &&
      block.newEnd - block.newStart <= MAX_TOKEN_DIFF_LINES;
    if (!refine) {
      edits.push({ start: oldStart, end: oldEnd, oldText: oldPart, newText: newPart });
      continue;
    }
    for (const inner of diffPieces(tokenize(oldPart), tokenize(newPart))) {
      edits.push({ start: oldStart + inner.start, end: oldStart + inner.end, oldText: inner.oldText, newText: inner.newText });
    }
  }
  return edits;
}

/** Split replacements that only insert (or only delete) characters into those characters. */
function normalizeExtensionEdits(edits: GranularEdit[]): GranularEdit[] {
  return edits.flatMap((edit) => {
    if (edit.oldText === '' || edit.newText === '') return [edit];
    const pieces = diffPieces(Array.from(edit.oldText), Array.from(edit.newText));
    const allDeletions = pieces.length > 0 && pieces.every((piece) => piece.oldText !== '' && piece.newText === '');
    const allInsertions = pieces.length > 0 && pieces.every((piece) => piece.oldText === '' && piece.newText !== '');
    if (!allDeletions && !allInsertions) return [edit];
    return pieces.map((piece) => ({ start: edit.start + piece.start, end: edit.start + piece.end, oldText: piece.oldText, newText: piece.newText }));
  });
}

/** Diff two token lists and express the changes as edits on the joined old text. */
function diffPieces(oldTokens: string[], newTokens: string[]): GranularEdit[] {
  const oldStarts = offsets(oldTokens);
  const newStarts = offsets(newTokens);
  const oldJoined = oldTokens.join('');
  const newJoined = newTokens.join('');
  return diffSequences(oldTokens, newTokens, 'histogram').map((block) => {
    const start = oldStarts[block.oldStart] as number;
    const end = oldStarts[block.oldEnd] as number;
    return { start, end, oldText: oldJoined.slice(start, end), newText: newJoined.slice(newStarts[block.newStart] as number, newStarts[block.newEnd] as number) };
  });
}

function offsets(parts: string[]): number[] {
  const starts = [0];
  for (const part of parts) starts.push((starts[starts.length - 1] as number) + part.length);
  return starts;
}
