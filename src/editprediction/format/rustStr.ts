/**
 * Text primitives that reproduce Rust `str` behaviour, so offsets and line splits agree with
 * Zed's `ep`. Every public offset in this folder is a UTF-8 byte offset (as Rust indexes
 * `str`); JS strings are UTF-16, so conversions live here and nowhere else.
 */

/** Number of UTF-8 bytes of `text`. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** UTF-16 index of the character boundary at or before `byteOffset` (clamped to the text). */
export function byteToIndex(text: string, byteOffset: number): number {
  let bytes = 0;
  for (let index = 0; index < text.length; ) {
    if (bytes >= byteOffset) return index;
    const code = text.codePointAt(index) ?? 0;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + width > byteOffset) return index;
    bytes += width;
    index += code >= 0x10000 ? 2 : 1;
  }
  return text.length;
}

/** UTF-8 byte offset of the UTF-16 index `index`. */
export function indexToByte(text: string, index: number): number {
  return utf8Length(text.slice(0, index));
}

/** Rust `char::is_whitespace` (the Unicode White_Space property). */
export function isRustWhitespace(char: string): boolean {
  return /^\p{White_Space}$/u.test(char);
}

/** Rust `str::trim_start` (Unicode White_Space). */
export function rustTrimStart(text: string): string {
  return text.replace(/^\p{White_Space}+/u, '');
}

/** Rust `str::trim` (Unicode White_Space). */
export function rustTrim(text: string): string {
  return text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

/**
 * Rust `str::match_indices`: the UTF-16 indices of the non-overlapping occurrences of
 * `pattern`, left to right. An empty pattern matches at every character boundary.
 */
export function matchIndices(text: string, pattern: string): number[] {
  const found: number[] = [];
  if (pattern === '') {
    for (let index = 0; index <= text.length; ) {
      found.push(index);
      if (index === text.length) break;
      index += (text.codePointAt(index) ?? 0) >= 0x10000 ? 2 : 1;
    }
    return found;
  }
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length)) {
    found.push(at);
  }
  return found;
}

/** Number of `\n` in `text` before UTF-16 index `index` (a 0-based line number). */
export function lineIndexAt(text: string, index: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

/** The code points of `text` (what Rust iterates with `chars()`). */
export function codePoints(text: string): string[] {
  return Array.from(text);
}
