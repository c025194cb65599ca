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
 * terminator, so a missing final newline shows as `\ No newline at end of file`). Returns ""
 * when the texts are equal. Parsing the result with `parseDiff` and applying it to `before`
 * gives `after`.
 */
export function unifiedDiff(before: string, after: string, options: UnifiedDiffOptions = {}): string {
  const oldLines = splitWithTerminators(before);
  const newLines = splitWithTerminators(after);
  const blocks = diffSequences(oldLines, newLines);
  if (blocks.length === 0) return '';
  const context = options.contextLines ?? 3;
  const lineOffset = options.lineOffset ?? 0;

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
      for (; oldAt < block.oldStart; oldAt += 1) out += line(' ', oldLines[oldAt] as string);
      for (let at = block.oldStart; at < block.oldEnd; at += 1) out += line('-', oldLines[at] as string);
      for (let at = block.newStart; at < block.newEnd; at += 1) out += line('+', newLines[at] as string);
      oldAt = block.oldEnd;
    }
    for (; oldAt < oldEnd; oldAt += 1) out += line(' ', oldLines[oldAt] as string);
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

function line(prefix: string, content: string): string {
  return content.endsWith('\n') ? `${prefix}${content}` : `${prefix}${content}\n\\ No newline at end of file\n`;
}
