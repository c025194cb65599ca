/**
 * The one way evalflow marks text it cut out of an agent's output, wherever that happens (a
 * long line as it is read, a reply, a plain stdout, a tool output for the builtin agent):
 * `[… 59.9 MB cut: kept the first 16,000 and last 16,000 characters]`. The note stands where
 * the cut was, and it can be read back, so a later cut of text that already holds a note adds
 * to the size instead of hiding it, and a summary can state how big a payload really was.
 */
export function cutNote(removedBytes: number, keptHead: number, keptTail: number): string {
  const kept = keptHead > 0 && keptTail > 0 ? `the first ${count(keptHead)} and last ${count(keptTail)}` : keptHead > 0 ? `the first ${count(keptHead)}` : `the last ${count(keptTail)}`;
  return `[… ${formatSize(removedBytes)} cut: kept ${kept} characters]`;
}

const CUT_NOTE = /\[… (\d+(?:\.\d)?) (bytes?|kB|MB|GB) cut: kept the (?:first [\d,]+ and last [\d,]+|first [\d,]+|last [\d,]+) characters\]/g;
/** Without the global flag: `test` must not leave a lastIndex behind for `matchAll` to start from. */
const ONE_CUT_NOTE = new RegExp(CUT_NOTE.source);
const UNIT = { byte: 1, bytes: 1, kB: 1e3, MB: 1e6, GB: 1e9 } as const;

/** UTF-8 size of `text` as the agent printed it: each cut note counts as the bytes it stands for. */
export function sizeOf(text: string): number {
  let bytes = 0;
  let from = 0;
  for (const note of text.matchAll(CUT_NOTE)) {
    bytes += Buffer.byteLength(text.slice(from, note.index)) + noteBytes(note);
    from = note.index + note[0].length;
  }
  return Math.round(bytes + Buffer.byteLength(from === 0 ? text : text.slice(from)));
}

/** The bytes the cut notes in `text` stand for: how much of it is not there. */
export function cutBytes(text: string): number {
  let bytes = 0;
  for (const note of text.matchAll(CUT_NOTE)) bytes += noteBytes(note);
  return Math.round(bytes);
}

/** Whether `text` holds a cut note, i.e. part of it was not kept. */
export function hasCutNote(text: string): boolean {
  return ONE_CUT_NOTE.test(text);
}

/** The cut notes of `text` as [start, end) ranges, for cutting around them rather than through them. */
export function cutNoteRanges(text: string): [number, number][] {
  return [...text.matchAll(CUT_NOTE)].map((note) => [note.index, note.index + note[0].length]);
}

/** A size as people read it: decimal units, one decimal place (`60.0 MB`, `16.0 kB`, `512 bytes`). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const [divisor, unit] = bytes >= 999_950_000 ? [1e9, 'GB'] : bytes >= 999_950 ? [1e6, 'MB'] : [1e3, 'kB'];
  return `${(bytes / divisor).toFixed(1)} ${unit}`;
}

function noteBytes(note: RegExpMatchArray): number {
  return Number(note[1]) * UNIT[note[2] as keyof typeof UNIT];
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
