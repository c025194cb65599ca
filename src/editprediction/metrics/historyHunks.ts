import { splitLines } from '../format/lineEndings.js';

/** A hunk of an edit-history event diff, read strictly from its `@@ -a,b +c,d @@` header. */
export interface HistoryHunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: Array<{ kind: 'context' | 'addition' | 'deletion'; text: string }>;
}

/**
 * Hunks of an event diff; lines before the first header and unknown lines are dropped. A CRLF
 * line keeps its CR in `text` (a line that is only a CR is an empty context line).
 */
export function parseHistoryHunks(diff: string): HistoryHunk[] {
  const hunks: HistoryHunk[] = [];
  let current: HistoryHunk | undefined;
  for (const line of splitLines(diff)) {
    const header = parseHeader(line);
    if (header) {
      if (current) hunks.push(current);
      current = { ...header, lines: [] };
    } else if (current) {
      if (line.startsWith('+')) current.lines.push({ kind: 'addition', text: line.slice(1) });
      else if (line.startsWith('-')) current.lines.push({ kind: 'deletion', text: line.slice(1) });
      else if (line.startsWith(' ')) current.lines.push({ kind: 'context', text: line.slice(1) });
      else if (line === '' || line === '\r') current.lines.push({ kind: 'context', text: line });
    }
  }
  if (current) hunks.push(current);
  return hunks;
}

export function formatHistoryHunk(hunk: HistoryHunk): string {
  const prefix = { context: ' ', addition: '+', deletion: '-' } as const;
  return `@@ -${hunk.oldStart},${hunk.oldCount} +${hunk.newStart},${hunk.newCount} @@\n${hunk.lines.map((line) => `${prefix[line.kind]}${line.text}\n`).join('')}`;
}

/** Swap the sides of a diff: headers, additions and deletions. */
export function reverseDiff(diff: string): string {
  const reversed = splitLines(diff)
    .map((line) => {
      if (line.startsWith('--- ')) return `+++ ${line.slice(4)}`;
      if (line.startsWith('+++ ')) return `--- ${line.slice(4)}`;
      if (line.startsWith('+') && !line.startsWith('+++')) return `-${line.slice(1)}`;
      if (line.startsWith('-') && !line.startsWith('---')) return `+${line.slice(1)}`;
      return line;
    })
    .join('\n');
  return diff.endsWith('\n') ? `${reversed}\n` : reversed;
}

/**
 * Keep only the lines of each hunk that fall inside the excerpt rows
 * [excerptStartRow, excerptStartRow + rowCount) of the new text, renumbered relative to
 * the excerpt.
 */
export function filterHunksByExcerpt(diff: string, excerptStartRow: number, rowCount: number): string {
  const excerptEnd = excerptStartRow + rowCount;
  let out = '';
  for (const hunk of parseHistoryHunks(diff)) {
    const hunkStart = Math.max(hunk.newStart - 1, 0);
    const hunkEnd = hunkStart + hunk.newCount;
    if (hunkEnd <= excerptStartRow || hunkStart >= excerptEnd) continue;
    const kept: HistoryHunk['lines'] = [];
    let row = hunkStart;
    let oldCount = 0;
    let newCount = 0;
    let firstRow: number | undefined;
    for (const line of hunk.lines) {
      const inside = row >= excerptStartRow && row < excerptEnd;
      if (inside) {
        firstRow ??= row;
        kept.push(line);
        if (line.kind !== 'addition') oldCount += 1;
        if (line.kind !== 'deletion') newCount += 1;
      }
      if (line.kind !== 'deletion') row += 1;
    }
    if (kept.length === 0) continue;
    const start = (firstRow ?? excerptStartRow) - excerptStartRow + 1;
    out += formatHistoryHunk({ oldStart: start, oldCount, newStart: start, newCount, lines: kept });
  }
  return out;
}

function parseHeader(line: string): Omit<HistoryHunk, 'lines'> | undefined {
  const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
  if (!match) return undefined;
  return { oldStart: Number(match[1]), oldCount: Number(match[2] ?? 1), newStart: Number(match[3]), newCount: Number(match[4] ?? 1) };
}
