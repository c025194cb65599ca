import { cutNote, formatSize } from './normalizers/cutNote.js';
import { createTextKeeper, LIMITS } from './normalizers/truncate.js';

/** Lines up to this many characters are passed on exactly as printed. */
export const LONG_LINE = 1_000_000;
/**
 * What a longer line keeps, as it is read: of each JSON string value longer than the reply
 * limit, its first and last halves of that limit; of a line that is not JSON, the same of the
 * whole line. The same split as the reply's, so a reply cut here is not cut again.
 */
const KEEP = LIMITS.reply / 2;
/** A line still longer than this once its long strings are cut (huge arrays of numbers) is dropped. */
export const MAX_KEPT_LINE = 16_000_000;

/** How a line longer than LONG_LINE was read. */
export interface LineCut {
  /** UTF-8 size of the whole line as printed. */
  bytes: number;
  /**
   * `strings`: JSON with at least one long string value cut, each holding its own cut note;
   * `text`: a plain line cut in its middle; `dropped`: nothing of it is kept.
   */
  kind: 'strings' | 'text' | 'dropped';
  /** For `strings`: how many string values were cut. */
  strings: number;
}

export interface LineReader {
  push(chunk: string): void;
  /** Emits a last line that had no newline. */
  flush(): void;
}

/**
 * Split a text stream into lines of any length in bounded memory. A line up to LONG_LINE is
 * passed on whole; a longer one is shortened while it arrives, so a 60 MB tool result never
 * sits in memory: a JSON line stays valid JSON (only its long strings lose their middles,
 * each replaced by a cut note, so its structure — ids, statuses, exit codes — is intact), and a
 * plain line keeps its first and last characters around a cut note. `cut` says which.
 */
export function createLineReader(onLine: (line: string, cut?: LineCut) => void): LineReader {
  let pending: string[] = [];
  let pendingLength = 0;
  let long: LongLine | undefined;
  let bytes = 0;

  function append(piece: string): void {
    if (long) {
      bytes += Buffer.byteLength(piece);
      long.write(piece);
      return;
    }
    pending.push(piece);
    pendingLength += piece.length;
    if (pendingLength <= LONG_LINE) return;
    long = startsWithBrace(pending) ? createJsonLine() : createTextLine();
    for (const part of pending) {
      bytes += Buffer.byteLength(part);
      long.write(part);
    }
    pending = [];
  }

  function emit(): void {
    if (long) {
      const { line, kind, strings } = long.end();
      // JSON whose strings were all short enough came through exactly as printed: no cut.
      if (kind === 'strings' && strings === 0) onLine(line.replace(/\r$/, ''));
      else onLine(line.replace(/\r$/, ''), { bytes, kind, strings });
    } else {
      onLine(pending.join('').replace(/\r$/, ''));
    }
    pending = [];
    pendingLength = 0;
    long = undefined;
    bytes = 0;
  }

  return {
    push(chunk) {
      let from = 0;
      for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', from)) {
        append(chunk.slice(from, newline));
        emit();
        from = newline + 1;
      }
      if (from < chunk.length) append(from === 0 ? chunk : chunk.slice(from));
    },
    flush() {
      if (long || pendingLength > 0) emit();
    },
  };
}

/** A one-line summary of a cut line, for the turn's notes: `stdout line 12 (10.0 MB): …`. */
export function describeLineCut(where: string, cut: LineCut): string {
  const size = `${where} (${formatSize(cut.bytes)})`;
  if (cut.kind === 'dropped') return `${size} was dropped: even with its long strings cut it was over ${formatSize(MAX_KEPT_LINE)}`;
  if (cut.kind === 'text') return `${size} is not JSON; kept its first and last ${KEEP.toLocaleString('en-US')} characters`;
  const strings = cut.strings === 1 ? '1 long string cut to its' : `${cut.strings} long strings cut to their`;
  return `${size} was read with ${strings} first and last ${KEEP.toLocaleString('en-US')} characters`;
}

function startsWithBrace(pieces: string[]): boolean {
  for (const piece of pieces) {
    const first = /\S/.exec(piece);
    if (first) return first[0] === '{';
  }
  return false;
}

interface LongLine {
  write(piece: string): void;
  end(): { line: string; kind: LineCut['kind']; strings: number };
}

function createTextLine(): LongLine {
  const keeper = createTextKeeper(KEEP, KEEP);
  return {
    write: (piece) => keeper.push(piece),
    end: () => ({ line: keeper.text(), kind: 'text', strings: 0 }),
  };
}

/**
 * Copies a JSON line as it streams by, cutting the middle of every string value longer than
 * 2 × KEEP. Works on the raw (escaped) text and never cuts inside an escape sequence, so what
 * it writes parses whenever the input does.
 */
function createJsonLine(): LongLine {
  let out: string[] = [];
  let outLength = 0;
  let dropped = false;
  let strings = 0;
  let current: RawString | undefined;
  const special = /["\\]/g;

  const keep = (text: string) => {
    if (dropped || !text) return;
    out.push(text);
    outLength += text.length;
    if (outLength > MAX_KEPT_LINE) {
      dropped = true;
      out = [];
    }
  };

  return {
    write(piece) {
      let i = 0;
      while (i < piece.length) {
        if (!current) {
          const quote = piece.indexOf('"', i);
          if (quote === -1) {
            keep(piece.slice(i));
            return;
          }
          keep(piece.slice(i, quote + 1));
          current = createRawString();
          i = quote + 1;
          continue;
        }
        if (current.escapeOpen) {
          current.append(piece[i]!);
          i++;
          continue;
        }
        special.lastIndex = i;
        const found = special.exec(piece);
        if (!found) {
          current.append(piece.slice(i));
          return;
        }
        if (found[0] === '\\') {
          // The escape and its next character go together; a \uXXXX's hex digits are plain.
          current.append(piece.slice(i, found.index + 2));
          i = found.index + 2;
          continue;
        }
        current.append(piece.slice(i, found.index));
        const { text, cut } = current.end();
        if (cut) strings++;
        keep(`${text}"`);
        current = undefined;
        i = found.index + 1;
      }
    },
    end() {
      if (current) keep(current.end().text);
      return dropped ? { line: '', kind: 'dropped', strings } : { line: out.join(''), kind: 'strings', strings };
    },
  };
}

interface RawString {
  /** A backslash was the last character appended: the next one belongs to it. */
  readonly escapeOpen: boolean;
  append(raw: string): void;
  end(): { text: string; cut: boolean };
}

/** The raw content of one JSON string: kept whole up to 2 × KEEP characters, else its ends and a note. */
function createRawString(): RawString {
  let head: string | undefined;
  let parts: string[] = [];
  let length = 0;
  let removedBytes = 0;
  let escapeOpen = false;

  const joined = () => {
    const text = parts.join('');
    parts = [text];
    return text;
  };
  const drop = (to: number) => {
    const text = joined();
    const at = rawIndexAfter(text, decodedLength(text) - to);
    removedBytes += decodedBytes(text.slice(0, at));
    parts = [text.slice(at)];
    length = parts[0]!.length;
  };

  return {
    get escapeOpen() {
      return escapeOpen;
    },
    append(raw) {
      if (!raw) return;
      parts.push(raw);
      length += raw.length;
      escapeOpen = trailingBackslashes(raw, escapeOpen);
      if (head === undefined && length > 2 * KEEP) {
        const text = joined();
        const at = rawIndexAfter(text, KEEP);
        head = text.slice(0, at);
        parts = [text.slice(at)];
        length = parts[0]!.length;
      }
      if (head !== undefined && length > 4 * KEEP) drop(KEEP);
    },
    end() {
      if (head === undefined) return { text: joined(), cut: false };
      drop(KEEP);
      const tail = joined();
      // Escapes made it look long: it decodes to no more than it may keep.
      if (removedBytes === 0) return { text: head + tail, cut: false };
      return { text: `${head}${cutNote(removedBytes, decodedLength(head), decodedLength(tail))}${tail}`, cut: true };
    },
  };
}

/**
 * Whether `raw` ends inside an escape: an odd run of trailing backslashes (after what was
 * already open) leaves the last one waiting for its character.
 */
function trailingBackslashes(raw: string, open: boolean): boolean {
  let run = 0;
  for (let i = raw.length - 1; i >= 0 && raw[i] === '\\'; i--) run++;
  if (run === raw.length) return (run + (open ? 1 : 0)) % 2 === 1;
  return run % 2 === 1;
}

/**
 * The position in raw string content (which starts at a character boundary) after its first
 * `count` decoded characters: never inside an escape sequence, nor between the halves of a
 * surrogate pair.
 */
function rawIndexAfter(raw: string, count: number): number {
  let from = 0;
  let seen = 0;
  for (;;) {
    const escape = raw.indexOf('\\', from);
    const plainEnd = escape === -1 ? raw.length : escape;
    if (seen + (plainEnd - from) >= count) {
      const at = from + Math.max(0, count - seen);
      const code = raw.charCodeAt(at - 1);
      return at > 0 && at < raw.length && code >= 0xd800 && code <= 0xdbff ? at + 1 : at;
    }
    if (escape === -1) return raw.length;
    seen += plainEnd - from + 1;
    from = Math.min(escape + (raw[escape + 1] === 'u' ? 6 : 2), raw.length);
    if (seen >= count) return from;
  }
}

/** How many characters raw string content decodes to: each escape sequence is one. */
function decodedLength(raw: string): number {
  let length = raw.length;
  for (let escape = raw.indexOf('\\'); escape !== -1; escape = raw.indexOf('\\', escape + 2)) {
    const size = raw[escape + 1] === 'u' ? 6 : 2;
    length -= Math.min(size, raw.length - escape) - 1;
    if (size === 6) escape += 4;
  }
  return length;
}

function decoded(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

function decodedBytes(raw: string): number {
  return Buffer.byteLength(decoded(raw) ?? raw);
}

