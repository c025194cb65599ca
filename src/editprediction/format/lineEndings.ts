/**
 * Line endings, kept byte for byte: every text of an example (blocks, diffs, the replayed
 * buffer) keeps its CRLF, LF and lone CR exactly, and lines are split at LF only. See
 * *Line endings* in docs/edit-prediction.md.
 */

/**
 * The lines of `text`, split at each LF (the LF removed, a CR before it kept, so a CRLF line
 * ends in `\r`), with no final empty line after a trailing LF. `lines.join('\n')` plus the
 * final LF gives the text back. Unlike Rust's `str::lines`, which drops that CR.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A line without the CR of its CRLF ending (for matching a line's structure, never its content). */
export function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** What Zed's editor buffers hold: every CRLF and every lone CR replaced by LF. */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Whether `text` has at least one LF and every LF in it is the end of a CRLF. */
export function isCrlfThroughout(text: string): boolean {
  return text.includes('\n') && !/(^|[^\r])\n/.test(text);
}
