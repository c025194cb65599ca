import { FormatError } from '../../errors.js';
import { splitLines } from './lineEndings.js';
import { byteToIndex, indexToByte, isRustWhitespace, utf8Length } from './rustStr.js';
import { parseDiffLine } from '../replay/parseDiff.js';

/** The inline cursor marker of the Cursor Position block (checked first). */
export const INLINE_CURSOR_MARKER = '<|user_cursor|>';
/** The comment-line marker, in Cursor Position blocks and in expected patches. */
export const CURSOR_POSITION_MARKER = '[CURSOR_POSITION]';

/** A cursor excerpt without its marker, and the cursor's UTF-8 byte offset in it. */
export interface CursorExcerpt {
  excerpt: string;
  offset: number;
}

/**
 * Decode a `cursor_position` block (*Cursor markers* in docs/edit-prediction.md). The inline
 * `<|user_cursor|>` wins; otherwise the first line holding `[CURSOR_POSITION]` sits below the
 * cursor line and gives the column with `^` (its byte index) or `<` (the byte index of the
 * line's first non-whitespace character). That line is removed and trailing LFs are stripped
 * (only LFs, as Zed: a CRLF excerpt keeps the CR of its last line); the column is not clamped.
 */
export function decodeCursorExcerpt(cursorPosition: string): CursorExcerpt {
  const inline = cursorPosition.indexOf(INLINE_CURSOR_MARKER);
  if (inline !== -1) {
    return {
      excerpt: cursorPosition.slice(0, inline) + cursorPosition.slice(inline + INLINE_CURSOR_MARKER.length),
      offset: indexToByte(cursorPosition, inline),
    };
  }
  const marker = cursorPosition.indexOf(CURSOR_POSITION_MARKER);
  if (marker === -1) {
    throw new FormatError(`cursor_position: missing ${CURSOR_POSITION_MARKER} marker (expected a "${CURSOR_POSITION_MARKER}" line below the cursor line, or an inline ${INLINE_CURSOR_MARKER})`);
  }
  const markerLineStart = lineStartBefore(cursorPosition, marker);
  const newlineAfter = cursorPosition.indexOf('\n', markerLineStart);
  const markerLineEnd = newlineAfter === -1 ? cursorPosition.length : newlineAfter + 1;
  const markerLine = cursorPosition.slice(markerLineStart, markerLineEnd).replace(/\n+$/, '');

  let column: number;
  const caret = markerLine.indexOf('^');
  const lessThan = markerLine.indexOf('<');
  if (caret !== -1) {
    column = indexToByte(markerLine, caret);
  } else if (lessThan !== -1) {
    const firstNonSpace = Array.from(markerLine).findIndex((char) => !isRustWhitespace(char));
    column = firstNonSpace === -1 ? indexToByte(markerLine, lessThan) : utf8Length(Array.from(markerLine).slice(0, firstNonSpace).join(''));
  } else {
    throw new FormatError(`cursor_position: cursor position marker line must contain '^' or '<' before ${CURSOR_POSITION_MARKER}, found ${JSON.stringify(markerLine)}`);
  }

  const excerpt = (cursorPosition.slice(0, markerLineStart) + cursorPosition.slice(markerLineEnd)).replace(/\n+$/, '');
  const cursorLineEnd = Math.min(Math.max(markerLineStart - 1, 0), excerpt.length);
  const cursorLineStart = lineStartBefore(excerpt, cursorLineEnd);
  return { excerpt, offset: indexToByte(excerpt, cursorLineStart) + column };
}

/**
 * Encode an excerpt and cursor as a `cursor_position` block with a comment marker line
 * (`set_cursor_excerpt`): `<` when the column is inside the comment prefix, else `^`. The
 * marker line ends as the cursor line does (CRLF after a CRLF line), so decoding gives the
 * excerpt back byte for byte.
 */
export function encodeCursorExcerpt(excerpt: string, offset: number, commentPrefix: string): string {
  const cursorIndex = byteToIndex(excerpt, offset);
  const lineStart = lineStartBefore(excerpt, cursorIndex);
  const newline = excerpt.indexOf('\n', lineStart);
  const lineEnd = newline === -1 ? excerpt.length : newline + 1;
  const cursorLine = excerpt.slice(lineStart, lineEnd);
  // Rust trim_start also eats the LF of a whitespace-only line; keep that quirk.
  const indent = cursorLine.slice(0, cursorLine.length - cursorLine.replace(/^\p{White_Space}+/u, '').length);
  const column = offset - indexToByte(excerpt, lineStart);
  const prefixBytes = utf8Length(commentPrefix);

  let markerLine: string;
  if (column < prefixBytes) {
    markerLine = `${' '.repeat(column)}${commentPrefix} <${CURSOR_POSITION_MARKER}`;
  } else {
    markerLine = column >= utf8Length(indent) + prefixBytes ? indent + commentPrefix : commentPrefix;
    const width = utf8Length(markerLine);
    if (width < column) markerLine += ' '.repeat(column - width);
    markerLine += `^${CURSOR_POSITION_MARKER}`;
  }

  let result = excerpt.slice(0, lineEnd);
  if (!result.endsWith('\n')) result += '\n';
  result += markerLine;
  if (lineEnd < excerpt.length) result += `${cursorLine.endsWith('\r\n') ? '\r\n' : '\n'}${excerpt.slice(lineEnd)}`;
  return result;
}

/** A patch without cursor marker lines, and the cursor offset it encoded (if any). */
export interface PatchCursor {
  patch: string;
  cursorOffset: number | undefined;
}

/**
 * Decode the `#…[CURSOR_POSITION]` line of an expected patch. The offset counts UTF-8 bytes
 * over the new-side text (added and context lines, each plus LF, a CRLF line's CR included)
 * of the whole patch, from the start of the line the marker follows; the `#` occupies the diff
 * prefix column, hence the −1. Marker lines are removed; the last one wins; every other byte
 * of the patch is kept.
 */
export function extractCursorFromPatch(patch: string): PatchCursor {
  const kept: string[] = [];
  let cursorOffset: number | undefined;
  let lineStart = 0;
  let previousLineStart = 0;
  for (const line of splitLines(patch)) {
    const parsed = parseDiffLine(line);
    if (parsed.kind === 'garbage' && isCursorMarkerLine(parsed.text)) {
      const caret = parsed.text.indexOf('^');
      const column = caret !== -1 ? indexToByte(parsed.text, caret) : parsed.text.includes('<') ? 0 : undefined;
      if (column !== undefined) cursorOffset = previousLineStart + Math.max(column - 1, 0);
      continue;
    }
    kept.push(line);
    if (parsed.kind === 'addition' || parsed.kind === 'context') {
      previousLineStart = lineStart;
      lineStart += utf8Length(parsed.text) + 1;
    }
  }
  let clean = kept.join('\n');
  if (patch.endsWith('\n') && clean !== '') clean += '\n';
  return { patch: clean, cursorOffset };
}

/**
 * Encode a cursor into a clean patch: existing marker lines are dropped first (idempotent),
 * then `#` + spaces + `^[CURSOR_POSITION]` goes after the first added line containing the
 * offset (ending in CRLF when that line does). A cursor that falls only on context lines is
 * not encoded.
 */
export function encodeCursorInPatch(patch: string, cursorOffset: number | undefined): string {
  if (cursorOffset === undefined) return patch;
  const lines = splitLines(patch).filter((line) => {
    const parsed = parseDiffLine(line);
    return !(parsed.kind === 'garbage' && isCursorMarkerLine(parsed.text));
  });
  const out: string[] = [];
  let lineStart = 0;
  let placed = false;
  for (const line of lines) {
    out.push(line);
    const parsed = parseDiffLine(line);
    if (parsed.kind !== 'addition' && parsed.kind !== 'context') continue;
    const length = utf8Length(parsed.text);
    if (!placed && parsed.kind === 'addition' && cursorOffset >= lineStart && cursorOffset <= lineStart + length) {
      out.push(`#${' '.repeat(cursorOffset - lineStart)}^${CURSOR_POSITION_MARKER}${line.endsWith('\r') ? '\r' : ''}`);
      placed = true;
    }
    lineStart += length + 1;
  }
  let encoded = out.join('\n');
  if (patch.endsWith('\n') && encoded !== '') encoded += '\n';
  return encoded;
}

/** The line-comment prefix used when writing a cursor marker for a file of this path. */
export function commentPrefixForPath(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1) : '';
  if (extension === '' || HASH_COMMENT.has(extension) || HASH_COMMENT.has(base)) return '#';
  if (DASH_COMMENT.has(extension)) return '--';
  return '//';
}

const HASH_COMMENT = new Set(['py', 'rb', 'sh', 'bash', 'zsh', 'fish', 'yaml', 'yml', 'toml', 'pl', 'r', 'ex', 'exs', 'nix', 'cmake', 'conf', 'ini', 'makefile', 'dockerfile', 'txt', 'md']);
const DASH_COMMENT = new Set(['sql', 'lua', 'hs', 'elm']);

/** Index just after the last LF before `index` (0 when there is none). */
function lineStartBefore(text: string, index: number): number {
  return index <= 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
}

function isCursorMarkerLine(line: string): boolean {
  return line.startsWith('#') && line.includes(CURSOR_POSITION_MARKER);
}
