import { ACCEPTED_PREDICTION_MARKER } from '../format/parseExampleMarkdown.js';
import type { Example } from '../format/schema.js';
import { INLINE_CURSOR_MARKER } from '../format/cursorMarkers.js';
import type { ExcerptLayout } from './excerptLayout.js';

export const EDITABLE_REGION_START = '<|editable_region_start|>\n';
export const EDITABLE_REGION_END = '\n<|editable_region_end|>';
/** What the model answers when it predicts no change. */
export const NO_EDITS = 'NO_EDITS';

export const SYSTEM_PROMPT = [
  'You predict the next edit a programmer will make in their editor.',
  'You are shown their recent edits as unified diffs (most recent last) and an excerpt of the file they are in.',
  `Inside the excerpt, the part between ${EDITABLE_REGION_START.trim()} and ${EDITABLE_REGION_END.trim()} is the region you may rewrite, and ${INLINE_CURSOR_MARKER} marks their cursor.`,
  'Continue what they are doing: finish the statement they are typing, complete a rename or refactoring they started, fix what they just broke. Do not undo their recent edits, and do not change code unrelated to them.',
  `Reply with the whole rewritten region between ${EDITABLE_REGION_START.trim()} and ${EDITABLE_REGION_END.trim()}, each marker on its own line, with ${INLINE_CURSOR_MARKER} where the cursor should be after the edit.`,
  `Keep every line you do not change exactly as it is, including its indentation. If no edit is needed, reply with ${NO_EDITS} only.`,
].join('\n');

/** The user message: the edit history and the excerpt with the editable region and cursor. */
export function buildUserPrompt(example: Example, layout: ExcerptLayout): string {
  return [
    '## Recent edits',
    '',
    '```diff',
    formatEditHistory(example),
    '```',
    '',
    `## Current file: ${layout.cursorPath}`,
    '',
    '`````',
    markedExcerpt(layout),
    '`````',
  ].join('\n');
}

/** The context window of the excerpt with the region markers and the cursor inserted. */
export function markedExcerpt(layout: ExcerptLayout): string {
  const { excerpt, editable, context, cursor } = layout;
  const cursorAt = Math.min(Math.max(cursor, editable.start), editable.end);
  return (
    excerpt.slice(context.start, editable.start) +
    EDITABLE_REGION_START +
    excerpt.slice(editable.start, cursorAt) +
    INLINE_CURSOR_MARKER +
    excerpt.slice(cursorAt, editable.end) +
    EDITABLE_REGION_END +
    excerpt.slice(editable.end, context.end)
  );
}

/**
 * The old editable region written into a prompt built by {@link buildUserPrompt} (cursor
 * marker removed), or undefined when the prompt has no region. Scoring uses it to rebase
 * expected cursors into the region, as Zed does for its region-rewriting teacher prompts.
 */
export function extractEditableRegion(promptInput: string): string | undefined {
  const start = promptInput.lastIndexOf(EDITABLE_REGION_START);
  if (start === -1) return undefined;
  const end = promptInput.indexOf(EDITABLE_REGION_END, start + EDITABLE_REGION_START.length);
  if (end === -1) return undefined;
  return promptInput.slice(start + EDITABLE_REGION_START.length, end).split(INLINE_CURSOR_MARKER).join('');
}

function formatEditHistory(example: Example): string {
  const events = example.prompt_inputs?.events ?? [];
  if (events.length === 0) return example.edit_history.replace(/\n$/, '') || '(No edit history)';
  return events
    .map((event) => {
      const header = `--- a/${event.old_path}\n+++ b/${event.path}\n`;
      return `${event.predicted ? `${ACCEPTED_PREDICTION_MARKER}\n` : ''}${header}${event.diff}`.replace(/\n$/, '');
    })
    .join('\n');
}
