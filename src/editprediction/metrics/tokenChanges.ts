import { splitLines, withoutCr } from '../format/lineEndings.js';
import { diffSequences } from '../replay/sequenceDiff.js';
import { tokenize } from './tokenize.js';

export interface TokenChanges {
  insertedTokens: number;
  deletedTokens: number;
}

/**
 * Inserted and deleted tokens of a patch: per contiguous block of `-`/`+` lines,
 * a token-level diff of the old against the new text, so a modified line counts only its
 * changed tokens.
 */
export function countPatchTokenChanges(patch: string): TokenChanges {
  const counts: TokenChanges = { insertedTokens: 0, deletedTokens: 0 };
  let oldLines: string[] = [];
  let newLines: string[] = [];
  const flush = () => {
    if (oldLines.length === 0 && newLines.length === 0) return;
    const oldTokens = tokenize(blockText(oldLines));
    const newTokens = tokenize(blockText(newLines));
    for (const block of diffSequences(oldTokens, newTokens)) {
      counts.deletedTokens += block.oldEnd - block.oldStart;
      counts.insertedTokens += block.newEnd - block.newStart;
    }
    oldLines = [];
    newLines = [];
  };
  for (const line of splitLines(patch)) {
    if (/^(---|\+\+\+|@@|diff |index )/.test(line)) flush();
    else if (line.startsWith('-')) oldLines.push(line);
    else if (line.startsWith('+')) newLines.push(line);
    else flush();
  }
  flush();
  return counts;
}

/**
 * The text of a run of `-` (or `+`) lines: the lines joined by their line ends, without the
 * last one's (for a CRLF line, neither its LF nor its CR, so a CRLF run counts as its LF twin).
 */
function blockText(lines: string[]): string {
  return withoutCr(lines.map((line) => line.slice(1)).join('\n'));
}
