import { rustTrim } from '../format/rustStr.js';
import { parseMetricsPatch } from './metricsPatch.js';
import type { PatchLine } from './metricsPatch.js';

/**
 * Whether the patch adds or deletes a whitespace-only line with no non-whitespace change in
 * its run of adjacent changed lines. A blank line added on the cursor's row
 * (0-based `cursorRow`, in new-file lines) is exempt.
 */
export function hasIsolatedWhitespaceChanges(patch: string, cursorRow: number | undefined): boolean {
  const cursorLine = cursorRow === undefined ? undefined : cursorRow + 1;
  for (const hunk of parseMetricsPatch(patch)) {
    let newLine = hunk.newStart;
    for (let index = 0; index < hunk.lines.length; index += 1) {
      const line = hunk.lines[index] as PatchLine;
      if (line.kind === 'context') {
        newLine += 1;
        continue;
      }
      if (line.kind === 'garbage') continue;
      if (line.kind === 'addition') {
        const additionLine = newLine;
        newLine += 1;
        if (isBlank(line.text) && cursorLine === additionLine) continue;
      }
      if (isBlank(line.text) && isolated(hunk.lines, index)) return true;
    }
  }
  return false;
}

function isolated(lines: PatchLine[], index: number): boolean {
  const substantive = (line: PatchLine) => (line.kind === 'addition' || line.kind === 'deletion') && !isBlank(line.text);
  const changed = (line: PatchLine) => line.kind === 'addition' || line.kind === 'deletion';
  for (let at = index - 1; at >= 0 && changed(lines[at] as PatchLine); at -= 1) if (substantive(lines[at] as PatchLine)) return false;
  for (let at = index + 1; at < lines.length && changed(lines[at] as PatchLine); at += 1) if (substantive(lines[at] as PatchLine)) return false;
  return true;
}

function isBlank(text: string): boolean {
  return rustTrim(text) === '';
}
