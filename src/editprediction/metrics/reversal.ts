import { applyDiffToString } from '../replay/applyDiff.js';
import type { EditEvent } from '../format/schema.js';
import { splitLines } from '../format/lineEndings.js';
import { filterHunksByExcerpt, formatHistoryHunk, parseHistoryHunks, reverseDiff } from './historyHunks.js';
import { granularEdits } from './granularEdits.js';
import type { GranularEdit } from './granularEdits.js';

/**
 * Reversal ratio: the share of the prediction's edit characters that undo the
 * user's most recent edit to the cursor file (deleting what the user just typed, or
 * re-typing what the user just deleted). 0 when there is no such edit, when it was an
 * accepted prediction, or when the prediction changes nothing.
 */
export function predictionReversalRatio(
  currentContent: string,
  events: EditEvent[],
  excerptStartRow: number | undefined,
  predictedContent: string,
  cursorPath: string,
): number {
  const relevant = events.filter((event) => event.path === cursorPath || event.path.split('/').slice(1).join('/') === cursorPath);
  const mostRecent = relevant[relevant.length - 1];
  if (!mostRecent || mostRecent.predicted || mostRecent.diff === '') return 0;

  let originalContent: string;
  if (excerptStartRow !== undefined) {
    originalContent = rollBackInExcerpt(mostRecent.diff, currentContent, excerptStartRow);
  } else {
    const reversed = reverseDiff(mostRecent.diff);
    try {
      originalContent = applyDiffToString(`--- a/file\n+++ b/file\n${reversed}`, currentContent);
    } catch {
      originalContent = applyLeniently(reversed, currentContent);
    }
  }
  const overlap = reversalOverlap(originalContent, currentContent, predictedContent);
  return overlap.total === 0 ? 0 : Math.fround(overlap.reversing / overlap.total);
}

/** Characters of the prediction that reverse the user's edit, and all its edit characters. */
export function reversalOverlap(original: string, current: string, predicted: string): { reversing: number; total: number } {
  const history = granularEdits(original, current);
  const prediction = granularEdits(current, predicted);
  const additions: Array<[number, number]> = [];
  const deletions: Array<{ text: string; at: number }> = [];
  let delta = 0;
  for (const edit of history) {
    const at = edit.start + delta;
    if (edit.newText !== '') additions.push([at, at + edit.newText.length]);
    if (edit.oldText !== '') deletions.push({ text: edit.oldText, at });
    delta += edit.newText.length - edit.oldText.length;
  }
  let reversing = 0;
  for (const edit of prediction) {
    for (const [start, end] of additions) {
      const from = Math.max(edit.start, start);
      const to = Math.min(edit.end, end);
      if (from < to) reversing += charCount(edit.oldText.slice(from - edit.start, to - edit.start));
    }
    if (edit.newText === '') continue;
    for (const deletion of deletions) {
      if ((deletion.at >= edit.start && deletion.at < edit.end) || deletion.at === edit.start) reversing += lcsLength(deletion.text, edit.newText);
    }
  }
  const total = prediction.reduce((sum: number, edit: GranularEdit) => sum + charCount(edit.newText) + charCount(edit.oldText), 0);
  return { reversing, total };
}

/** The excerpt before the user's last edit, using only the diff lines inside the excerpt. */
function rollBackInExcerpt(diff: string, excerpt: string, excerptStartRow: number): string {
  const rowCount = Math.max(splitLines(excerpt).length, 1);
  const filtered = filterHunksByExcerpt(diff, excerptStartRow, rowCount);
  if (filtered === '') return excerpt;
  try {
    return applyDiffToString(reverseDiff(`--- a/file\n+++ b/file\n${filtered}`), excerpt);
  } catch {
    return excerpt;
  }
}

/** Apply hunk by hunk, skipping hunks that do not apply. */
function applyLeniently(diff: string, text: string): string {
  let result = text;
  for (const hunk of parseHistoryHunks(diff)) {
    try {
      result = applyDiffToString(`--- a/file\n+++ b/file\n${formatHistoryHunk(hunk)}`, result);
    } catch {
      // Zed's lenient path keeps going with the hunks that do apply.
    }
  }
  return result;
}

function charCount(text: string): number {
  return Array.from(text).length;
}

function lcsLength(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  if (left.length === 0 || right.length === 0) return 0;
  let previous = new Array<number>(right.length + 1).fill(0);
  for (let i = 1; i <= left.length; i += 1) {
    const current = new Array<number>(right.length + 1).fill(0);
    for (let j = 1; j <= right.length; j += 1) {
      current[j] = left[i - 1] === right[j - 1] ? (previous[j - 1] as number) + 1 : Math.max(previous[j] as number, current[j - 1] as number);
    }
    previous = current;
  }
  return previous[right.length] as number;
}
