import { splitLines } from '../format/lineEndings.js';

export type PatchLine =
  | { kind: 'context'; text: string }
  | { kind: 'addition'; text: string }
  | { kind: 'deletion'; text: string }
  | { kind: 'garbage'; text: string };

export interface PatchHunk {
  oldStart: number;
  newStart: number;
  lines: PatchLine[];
}

/**
 * The lenient patch reading the metrics use (Zed's `Patch::parse_unified_diff`, distinct
 * from the applying parser): lines before the first header are skipped, each `@@` starts a
 * hunk, and every other line is kept by its first character (anything else is "garbage").
 */
export function parseMetricsPatch(patch: string): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  let hunk: PatchHunk = { oldStart: 0, newStart: 0, lines: [] };
  let inHeader = true;
  for (const line of splitLines(patch)) {
    if (line.startsWith('--- ') || line.startsWith('+++') || line.startsWith('@@')) inHeader = false;
    if (inHeader) continue;
    if (line.startsWith('@@')) {
      if (hunk.lines.length > 0) hunks.push(hunk);
      hunk = { ...parseHeader(line), lines: [] };
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      continue;
    } else if (line.startsWith('+')) {
      hunk.lines.push({ kind: 'addition', text: line.slice(1) });
    } else if (line.startsWith('-')) {
      hunk.lines.push({ kind: 'deletion', text: line.slice(1) });
    } else if (line.startsWith(' ')) {
      hunk.lines.push({ kind: 'context', text: line.slice(1) });
    } else {
      hunk.lines.push({ kind: 'garbage', text: line });
    }
  }
  if (hunk.lines.length > 0) hunks.push(hunk);
  return hunks;
}

function parseHeader(line: string): { oldStart: number; newStart: number } {
  const parts = line.replace(/^@+/, '').trim().split(/\s+/).filter((part) => part !== '');
  if (parts.length < 2) return { oldStart: 0, newStart: 0 };
  const start = (part: string) => {
    const value = Number(part.split(',')[0]);
    return Number.isInteger(value) && value >= 0 ? value : 0;
  };
  return { oldStart: start((parts[0] as string).replace(/^-+/, '')), newStart: start((parts[1] as string).replace(/^\++/, '')) };
}
