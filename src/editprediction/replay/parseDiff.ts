import { splitLines, withoutCr } from '../format/lineEndings.js';

/**
 * Unified diff parsing with the line rules of Zed's `zeta_prompt::udiff` (*Diff lines* in
 * docs/edit-prediction.md): hunk header counts are ignored (only the old start line is kept,
 * to disambiguate), a line that is not a header, `@@`, ` `, `-`, `+`, empty or `\ No newline`
 * is "garbage" and ends the current file section, and `\ No newline at end of file` drops the
 * trailing LF of the last line it follows. Lines are split at LF only: the CR of a CRLF line
 * is part of the line's text, so a CRLF diff finds and writes CRLF lines (Zed, which splits
 * with `str::lines`, drops it). Hunk offsets here are UTF-16 indices into `hunk.context`.
 */

export interface HunkLocation {
  /** 0-based old start line (the header's number minus one). */
  startLineOld: number;
  countOld: number;
  startLineNew: number;
  countNew: number;
}

export type DiffLine =
  | { kind: 'oldPath'; path: string }
  | { kind: 'newPath'; path: string }
  | { kind: 'hunkHeader'; location: HunkLocation | undefined }
  | { kind: 'context'; text: string }
  | { kind: 'deletion'; text: string }
  | { kind: 'addition'; text: string }
  | { kind: 'noNewline' }
  | { kind: 'garbage'; text: string };

/** One replacement inside a hunk: `context[start, end)` becomes `text`. */
export interface HunkEdit {
  start: number;
  end: number;
  text: string;
}

export interface Hunk {
  /** Context and deleted lines, each with its LF: the text the hunk must find. */
  context: string;
  edits: HunkEdit[];
  /** 0-based old start line from the `@@` header, when there was one. */
  startLine: number | undefined;
  /** 1-based line of the diff where the hunk starts (its `@@` line, else its first line). */
  diffLine: number;
}

export type FileStatus = 'created' | 'modified' | 'deleted';

export type DiffEvent =
  | { kind: 'hunk'; path: string; hunk: Hunk; status: FileStatus }
  | { kind: 'fileEnd'; oldPath: string; newPath: string; renamedTo: string | undefined };

/**
 * Classify one diff line (already split by {@link splitLines}). Headers, `@@` and
 * `\ No newline` lines are recognised without the CR of a CRLF line; context, deleted and
 * added lines keep it in their text, and a line that is only that CR is an empty context line.
 */
export function parseDiffLine(line: string): DiffLine {
  const bare = withoutCr(line);
  if (bare.startsWith('\\ No newline')) return { kind: 'noNewline' };
  const oldHeader = bare.startsWith('---') ? eatRequiredWhitespace(bare.slice(3)) : undefined;
  if (oldHeader !== undefined) return { kind: 'oldPath', path: parseHeaderPath('a/', oldHeader) };
  const newHeader = bare.startsWith('+++') ? eatRequiredWhitespace(bare.slice(3)) : undefined;
  if (newHeader !== undefined) return { kind: 'newPath', path: parseHeaderPath('b/', newHeader) };
  const hunkHeader = bare.startsWith('@@') ? eatRequiredWhitespace(bare.slice(2)) : undefined;
  if (hunkHeader !== undefined) {
    if (hunkHeader.startsWith('...')) return { kind: 'hunkHeader', location: undefined };
    const location = parseHunkLocation(hunkHeader);
    return location ? { kind: 'hunkHeader', location } : { kind: 'garbage', text: line };
  }
  if (line.startsWith('-')) return { kind: 'deletion', text: line.slice(1) };
  if (bare === '') return { kind: 'context', text: line };
  if (line.startsWith(' ')) return { kind: 'context', text: line.slice(1) };
  if (line.startsWith('+')) return { kind: 'addition', text: line.slice(1) };
  return { kind: 'garbage', text: line };
}

/** Parse a whole diff into hunk and file-end events, in order. */
export function parseDiff(diff: string): DiffEvent[] {
  const events: DiffEvent[] = [];
  let file: { oldPath: string; newPath: string } | undefined;
  let hunk = emptyHunk();
  let pendingStartLine: number | undefined;
  let noNewlineSeen = false;
  let lastOp: 'none' | 'context' | 'deletion' | 'addition' = 'none';
  let headerLine: number | undefined;

  const flushHunk = () => {
    if (!file || (hunk.context === '' && hunk.edits.length === 0)) return;
    const status: FileStatus = file.oldPath === '/dev/null' ? 'created' : file.newPath === '/dev/null' ? 'deleted' : 'modified';
    hunk.startLine = pendingStartLine;
    // The pending start line is consumed only by a hunk that is emitted (as upstream does).
    pendingStartLine = undefined;
    events.push({ kind: 'hunk', path: status === 'created' ? file.newPath : file.oldPath, hunk, status });
    hunk = emptyHunk();
    noNewlineSeen = false;
    lastOp = 'none';
    headerLine = undefined;
  };
  const flushFile = () => {
    if (!file) return;
    const renamed = file.oldPath !== file.newPath && file.oldPath !== '/dev/null';
    events.push({ kind: 'fileEnd', oldPath: file.oldPath, newPath: file.newPath, renamedTo: renamed ? file.newPath : undefined });
    file = undefined;
  };

  const lines = splitLines(diff);
  for (let index = 0; index < lines.length; index += 1) {
    const parsed = parseDiffLine(lines[index] as string);
    if (parsed.kind === 'oldPath' || parsed.kind === 'garbage') {
      flushHunk();
      flushFile();
    } else if (parsed.kind === 'hunkHeader') {
      flushHunk();
      headerLine = index + 1;
    }
    if (file && hunk.context === '' && hunk.edits.length === 0) hunk.diffLine = headerLine ?? index + 1;
    switch (parsed.kind) {
      case 'oldPath':
        file = { oldPath: parsed.path, newPath: '' };
        break;
      case 'newPath':
        if (file) file.newPath = parsed.path;
        break;
      case 'hunkHeader':
        if (parsed.location) pendingStartLine = parsed.location.startLineOld;
        break;
      case 'context':
        if (file) {
          hunk.context += `${parsed.text}\n`;
          lastOp = 'context';
        }
        break;
      case 'deletion':
        if (file) {
          const start = hunk.context.length;
          const end = start + parsed.text.length + 1;
          const last = hunk.edits[hunk.edits.length - 1];
          if (last && last.end === start) last.end = end;
          else hunk.edits.push({ start, end, text: '' });
          hunk.context += `${parsed.text}\n`;
          lastOp = 'deletion';
        }
        break;
      case 'addition':
        if (file) {
          const at = hunk.context.length;
          const last = hunk.edits[hunk.edits.length - 1];
          if (last && last.end === at) last.text += `${parsed.text}\n`;
          else hunk.edits.push({ start: at, end: at, text: `${parsed.text}\n` });
          lastOp = 'addition';
        }
        break;
      case 'noNewline':
        if (!noNewlineSeen) {
          noNewlineSeen = true;
          dropTrailingNewline(hunk, lastOp);
        }
        break;
      case 'garbage':
        break;
    }
  }
  flushHunk();
  flushFile();
  return events;
}

/**
 * Rewrite `--- a/<prefix>/x` and `+++ b/<prefix>/x` headers to drop `<prefix>/` (old examples
 * carry the repository name as the first path component). Unchanged when no header has it.
 */
export function stripDiffPathPrefix(diff: string, prefix: string): string {
  if (prefix === '') return diff;
  const withSlash = `${prefix}/`;
  const lines = splitLines(diff);
  const needsRewrite = lines.some((line) => {
    const parsed = parseDiffLine(line);
    return (parsed.kind === 'oldPath' || parsed.kind === 'newPath') && parsed.path.startsWith(withSlash);
  });
  if (!needsRewrite) return diff;
  return lines
    .map((line) => {
      const parsed = parseDiffLine(line);
      const strip = (path: string) => (path.startsWith(withSlash) ? path.slice(withSlash.length) : path);
      const cr = line.endsWith('\r') ? '\r' : '';
      if (parsed.kind === 'oldPath') return `--- a/${strip(parsed.path)}${cr}\n`;
      if (parsed.kind === 'newPath') return `+++ b/${strip(parsed.path)}${cr}\n`;
      return `${line}\n`;
    })
    .join('');
}

function emptyHunk(): Hunk {
  return { context: '', edits: [], startLine: undefined, diffLine: 0 };
}

function dropTrailingNewline(hunk: Hunk, lastOp: 'none' | 'context' | 'deletion' | 'addition'): void {
  const last = hunk.edits[hunk.edits.length - 1];
  if (lastOp === 'addition') {
    if (last) last.text = last.text.slice(0, -1);
  } else if (lastOp === 'deletion') {
    hunk.context = hunk.context.slice(0, -1);
    if (last) last.end -= 1;
  } else {
    hunk.context = hunk.context.slice(0, -1);
  }
}

/** Rust `trim_ascii_start`, but only when at least one whitespace byte was removed. */
function eatRequiredWhitespace(header: string): string | undefined {
  const trimmed = header.replace(/^[ \t\n\f\r]+/, '');
  return trimmed.length === header.length ? undefined : trimmed;
}

function parseHunkLocation(header: string): HunkLocation | undefined {
  const tokens = header.split(/\p{White_Space}+/u).filter((token) => token !== '');
  const oldRange = tokens[0]?.startsWith('-') ? tokens[0].slice(1) : undefined;
  const newRange = tokens[1]?.startsWith('+') ? tokens[1].slice(1) : undefined;
  if (oldRange === undefined || newRange === undefined) return undefined;
  const [oldStart, oldCount] = splitRange(oldRange);
  const [newStart, newCount] = splitRange(newRange);
  const numbers = [oldStart, oldCount, newStart, newCount].map(parseU32);
  if (numbers.some((value) => value === undefined)) return undefined;
  const [startOld, countOld, startNew, countNew] = numbers as [number, number, number, number];
  return { startLineOld: Math.max(startOld - 1, 0), countOld, startLineNew: Math.max(startNew - 1, 0), countNew };
}

function splitRange(range: string): [string, string] {
  const comma = range.indexOf(',');
  return comma === -1 ? [range, '1'] : [range.slice(0, comma), range.slice(comma + 1)];
}

function parseU32(text: string): number | undefined {
  if (!/^\+?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return value <= 0xffffffff ? value : undefined;
}

/** Header path: `a/`/`b/` stripped, quotes and backslash escapes honoured, timestamps dropped. */
function parseHeaderPath(stripPrefix: string, header: string): string {
  if (!header.includes('"') && !header.includes('\\')) {
    const path = header.split(/[ \t\n\f\r]+/).find((part) => part !== '') ?? header;
    return path.startsWith(stripPrefix) ? path.slice(stripPrefix.length) : path;
  }
  let path = '';
  let inQuote = false;
  let prefixPending = true;
  const chars = Array.from(header);
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as string;
    if (char === '"') {
      inQuote = !inQuote;
    } else if (char === '\\') {
      const next = chars[index + 1];
      if (next === undefined) break;
      path += next;
      index += 1;
    } else if (/^[ \t\n\f\r]$/.test(char) && !inQuote) {
      break;
    } else {
      path += char;
    }
    if (prefixPending && path === stripPrefix) {
      prefixPending = false;
      path = '';
    }
  }
  return path;
}
