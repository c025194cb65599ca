/** Limits that keep every transcript line small (DESIGN.md: summaries, never payloads). */
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
