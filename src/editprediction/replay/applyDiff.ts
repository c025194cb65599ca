import { FormatError } from '../../errors.js';
import { indexToByte, lineIndexAt, matchIndices } from '../format/rustStr.js';
import { parseDiff } from './parseDiff.js';
import type { Hunk } from './parseDiff.js';

/**
 * String patch application used in scoring (*Patch application* in docs/edit-prediction.md):
 * each hunk's context is searched in the current text, byte for byte; a missing final line end
 * is tolerated at end of text; several matches are disambiguated by the hunk's old start line;
 * edits apply right to left, and the next hunk sees the updated text. File paths in the diff
 * are ignored.
 */
export function applyDiffToString(diff: string, text: string): string {
  return applyDiffWithHunkOffset(diff, text).text;
}

/**
 * Like {@link applyDiffToString}, and also returns the UTF-8 byte offset (in the original
 * text) where the first hunk's context matched, used to rebase a hunk-relative cursor.
 */
export function applyDiffWithHunkOffset(diff: string, text: string): { text: string; firstHunkOffset: number | undefined } {
  let current = text;
  let firstHunkOffset: number | undefined;
  for (const event of parseDiff(diff)) {
    if (event.kind !== 'hunk') continue;
    const hunk = cloneHunk(event.hunk);
    const candidates = findContextCandidates(current, hunk);
    const offset = disambiguateByLineNumber(candidates, hunk.startLine, current);
    if (offset === undefined) {
      const why = candidates.length === 0 ? 'its context was not found' : `its context matched ${candidates.length} times and the @@ line number picks none`;
      throw new FormatError(`couldn't resolve hunk: ${why}`);
    }
    if (firstHunkOffset === undefined) firstHunkOffset = indexToByte(current, offset);
    for (const edit of [...hunk.edits].reverse()) {
      current = current.slice(0, offset + edit.start) + edit.text + current.slice(offset + edit.end);
    }
  }
  return { text: current, firstHunkOffset };
}

/**
 * All offsets where the hunk's context occurs. When there is none and the context ends with
 * LF, retry without it, accepting only a match that ends exactly at end of text (a diff that
 * lacks `\ No newline at end of file`); the hunk is then trimmed and its edits clamped. The
 * missing line end may also be a whole CRLF (a CRLF text cut at the end of a line, as the
 * prompt's cursor excerpt is), in which case an edit ending in CRLF loses both bytes.
 */
export function findContextCandidates(text: string, hunk: Hunk): number[] {
  const exact = matchIndices(text, hunk.context);
  if (exact.length > 0 || !hunk.context.endsWith('\n')) return exact;
  const endings = hunk.context.endsWith('\r\n') ? ['\n', '\r\n'] : ['\n'];
  for (const ending of endings) {
    const trimmed = hunk.context.slice(0, -ending.length);
    if (trimmed === '') return [];
    const atEnd = matchIndices(text, trimmed).filter((offset) => offset + trimmed.length === text.length);
    if (atEnd.length === 0) continue;
    hunk.context = trimmed;
    for (const edit of hunk.edits) {
      const touchedPhantom = edit.end > trimmed.length;
      edit.start = Math.min(edit.start, trimmed.length);
      edit.end = Math.min(edit.end, trimmed.length);
      if (touchedPhantom && edit.text.endsWith(ending)) edit.text = edit.text.slice(0, -ending.length);
    }
    return atEnd;
  }
  return [];
}

function disambiguateByLineNumber(candidates: number[], startLine: number | undefined, text: string): number | undefined {
  if (candidates.length <= 1) return candidates[0];
  if (startLine === undefined) return undefined;
  return candidates.find((offset) => lineIndexAt(text, offset) === startLine);
}

function cloneHunk(hunk: Hunk): Hunk {
  return { ...hunk, edits: hunk.edits.map((edit) => ({ ...edit })) };
}
