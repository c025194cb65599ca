import { FormatError } from '../../errors.js';
import type { CursorExcerpt } from '../format/cursorMarkers.js';
import { byteToIndex, indexToByte, matchIndices } from '../format/rustStr.js';

/** Where an example's cursor excerpt and cursor are in the cursor file (UTF-8 bytes). */
export interface CursorLocation {
  excerptOffset: number;
  cursorOffset: number;
}

/**
 * Find the decoded cursor excerpt in the cursor file's text: it must occur exactly once, byte
 * for byte (line endings included); the cursor is where it occurs plus the excerpt's own
 * cursor offset. `example` and `path` name the example and the file in errors.
 */
export function locateCursor(text: string, decoded: CursorExcerpt, path: string, example: string): CursorLocation {
  const matches = matchIndices(text, decoded.excerpt);
  if (matches.length === 0) {
    throw new FormatError(`${example}: Cursor excerpt did not exist in buffer ${path} (after the edit history)${lineEndingHint(text, decoded.excerpt)}; the excerpt was:\n${decoded.excerpt}`);
  }
  if (matches.length > 1) {
    throw new FormatError(`${example}: More than one cursor position match found: the excerpt occurs ${matches.length} times in ${path}; include more lines around the cursor`);
  }
  const excerptOffset = indexToByte(text, matches[0] as number);
  // Keep the cursor on a character boundary even when an unclamped `<` column spills over.
  const cursorOffset = indexToByte(text, byteToIndex(text, excerptOffset + decoded.offset));
  return { excerptOffset, cursorOffset };
}

/** Why an excerpt may be missing: it has CRs the file lacks (line endings are compared byte for byte). */
function lineEndingHint(text: string, excerpt: string): string {
  return excerpt.includes('\r') && !text.includes('\r') ? ' (the excerpt has CR line endings, the file has none)' : '';
}
