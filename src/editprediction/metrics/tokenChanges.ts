import { rustLines } from '../format/rustStr.js';
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
    const oldTokens = tokenize(oldLines.map((line) => line.slice(1)).join('\n'));
    const newTokens = tokenize(newLines.map((line) => line.slice(1)).join('\n'));
    for (const block of diffSequences(oldTokens, newTokens)) {
      counts.deletedTokens += block.oldEnd - block.oldStart;
      counts.insertedTokens += block.newEnd - block.newStart;
    }
    oldLines = [];
    newLines = [];
  };
  for (const line of rustLines(patch)) {
    if (/^(---|\+\+\+|@@|diff |index )/.test(line)) flush();
    else if (line.startsWith('-')) oldLines.push(line);
    else if (line.startsWith('+')) newLines.push(line);
    else flush();
  }
  flush();
  return counts;
}
