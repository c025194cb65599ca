import { cutNote, cutNoteRanges, sizeOf } from './cutNote.js';

/** Limits that keep every transcript line small: tool events are summaries, never payloads (docs/architecture.md). */
export const LIMITS = {
  thinking: 500,
  partial: 2000,
  /** The final reply is the agent's answer, not a payload: kept whole up to this sanity cap. */
  reply: 32_000,
  target: 2000,
  command: 300,
  outputTail: 200,
  errorMessage: 200,
} as const;

/** Cut `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Keep the end of `text` (where build and test output says what happened). */
export function clipTail(text: string, max: number): string {
  if (text.length <= max) return text;
  return `…${text.slice(text.length - Math.max(0, max - 1))}`;
}

/**
 * Keep the first `head` and last `tail` characters of `text`, with a cut note between them
 * saying how much is missing. Text that already holds a note is cut around it, and the new
 * note adds up what both cuts removed: cutting twice gives the same text as cutting once.
 */
export function cutMiddle(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  const ranges = cutNoteRanges(text);
  const start = boundaryBefore(text, head, ranges);
  const end = boundaryAfter(text, text.length - tail, ranges);
  if (end <= start) return text;
  return `${text.slice(0, start)}${cutNote(sizeOf(text.slice(start, end)), start, text.length - end)}${text.slice(end)}`;
}

/**
 * Keeps the first `head` and last `tail` characters of text that arrives in pieces, in memory
 * bounded by about `head + 2 × tail`, and notes what was cut between them (for a plain stdout of
 * any size, or a shell tool's output).
 */
export interface TextKeeper {
  push(text: string): void;
  /** The text kept, with a cut note where the middle was cut; unchanged when nothing was. */
  text(): string;
}

export function createTextKeeper(head: number, tail: number): TextKeeper {
  let first = '';
  let headOpen = head > 0;
  let rest: string[] = [];
  let restLength = 0;
  let removedBytes = 0;
  let removedHere = false;

  function compact(to: number): void {
    if (restLength <= to) return;
    const joined = rest.join('');
    const at = boundaryAfter(joined, joined.length - to, cutNoteRanges(joined));
    removedBytes += sizeOf(joined.slice(0, at));
    removedHere ||= at > 0;
    rest = [joined.slice(at)];
    restLength = rest[0]!.length;
  }

  return {
    push(text) {
      let piece = text;
      if (headOpen) {
        const room = head - first.length;
        if (piece.length <= room) {
          first += piece;
          return;
        }
        const at = boundaryBefore(piece, room, cutNoteRanges(piece));
        first += piece.slice(0, at);
        piece = piece.slice(at);
        headOpen = false;
      }
      if (!piece) return;
      rest.push(piece);
      restLength += piece.length;
      // Compacting only past twice the tail keeps the cost linear in the text read.
      if (restLength > 2 * tail + 4096) compact(tail);
    },
    text() {
      compact(tail);
      const kept = rest.join('');
      return removedHere ? `${first}${cutNote(removedBytes, first.length, kept.length)}${kept}` : first + kept;
    },
  };
}

/** The last cut position at or before `at` that splits neither a surrogate pair nor a cut note. */
function boundaryBefore(text: string, at: number, notes: [number, number][]): number {
  let cut = Math.max(0, Math.min(at, text.length));
  for (const [start, end] of notes) if (start < cut && cut < end) cut = start;
  return cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1)) ? cut - 1 : cut;
}

/** The first cut position at or after `at` that splits neither a surrogate pair nor a cut note. */
function boundaryAfter(text: string, at: number, notes: [number, number][]): number {
  let cut = Math.max(0, Math.min(at, text.length));
  for (const [start, end] of notes) if (start < cut && cut < end) cut = end;
  return cut > 0 && cut < text.length && isHighSurrogate(text.charCodeAt(cut - 1)) ? cut + 1 : cut;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Collapse line breaks so a summary stays one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ⏎ ').trim();
}

/** Lines of a file body as an editor counts them (a trailing newline does not add one). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
