import { diffSequences } from './sequenceDiff.js';
import type { DiffBlock } from './sequenceDiff.js';

export interface UnifiedDiffOptions {
  /** Path for the `--- a/` and `+++ b/` headers; without it only hunks are written. */
  path?: string;
  /** New path when the file was renamed (defaults to `path`). */
  newPath?: string;
  /** Unchanged lines kept around each change (default 3). */
  contextLines?: number;
  /** Added to every line number in `@@` headers, e.g. the row where an excerpt starts. */
  lineOffset?: number;
}

/**
 * A unified diff turning `before` into `after` (line based; lines compare with their line
 * terminator). Returns "" when the texts are equal. Applying the result with Zed's rules
 * (`applyDiffToString`) to `before` gives `after`. Zed's parser honours only the first
 * `\ No newline at end of file` of a hunk, so the marker is written only when exactly one
 * side lacks its final newline; when both do, none is written and Zed's end-of-text fallback
 * applies the hunk.
 */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions = {}): string {
  const oldLines = splitWithTerminators(before);
  const newLines = splitWithTerminators(after);
  const blocks = diffSequences(oldLines, newLines);
  if (blocks.length === 0) return '';
  const context = options.contextLines ?? 3;
  const lineOffset = options.lineOffset ?? 0;
  const oldMissing = before !== '' && !before.endsWith('\n');
  const newMissing = after !== '' && !after.endsWith('\n');
  const markOld = oldMissing && !newMissing;
  const markNew = newMissing && !oldMissing;
  const line = (prefix: string, content: string, side: 'old' | 'new' | 'both') => {
    if (content.endsWith('\n')) return `${prefix}${content}`;
    const marked = (side !== 'new' && markOld) || (side !== 'old' && markNew);
    return marked ? `${prefix}${content}\n\\ No newline at end of file\n` : `${prefix}${content}\n`;
  };

  let out = '';
  if (options.path !== undefined) out += `--- a/${options.path}\n+++ b/${options.newPath ?? options.path}\n`;
  for (const group of groupBlocks(blocks, context)) {
    const first = group[0] as DiffBlock;
    const last = group[group.length - 1] as DiffBlock;
    const oldStart = Math.max(first.oldStart - context, 0);
    const newStart = Math.max(first.newStart - context, 0);
    const oldEnd = Math.min(last.oldEnd + context, oldLines.length);
    const newEnd = Math.min(last.newEnd + context, newLines.length);
    out += `@@ -${range(oldStart, oldEnd - oldStart, lineOffset)} +${range(newStart, newEnd - newStart, lineOffset)} @@\n`;
    let oldAt = oldStart;
    for (const block of group) {
      for (; oldAt < block.oldStart; oldAt += 1) out += line(' ', oldLines[oldAt] as string, 'both');
      for (let at = block.oldStart; at < block.oldEnd; at += 1) out += line('-', oldLines[at] as string, 'old');
      for (let at = block.newStart; at < block.newEnd; at += 1) out += line('+', newLines[at] as string, 'new');
      oldAt = block.oldEnd;
    }
    for (; oldAt < oldEnd; oldAt += 1) out += line(' ', oldLines[oldAt] as string, 'both');
  }
  return out;
}

/** Lines including their `\n` (the last one may lack it). */
export function splitWithTerminators(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines[0] === '' ? [] : lines;
}

function groupBlocks(blocks: DiffBlock[], context: number): DiffBlock[][] {
  const groups: DiffBlock[][] = [];
  for (const block of blocks) {
    const current = groups[groups.length - 1];
    const previous = current?.[current.length - 1];
    if (current && previous && block.oldStart - previous.oldEnd <= 2 * context) current.push(block);
    else groups.push([block]);
  }
  return groups;
}

function range(start: number, count: number, lineOffset: number): string {
  // An empty side names the line before it, as `diff -u` does.
  const first = count === 0 ? start + lineOffset : start + lineOffset + 1;
  return `${first},${count}`;
}
