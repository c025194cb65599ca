/**
 * Zed's metric tokenizer: identifiers split into sub-words at camel-case humps and runs of
 * `_` (which are tokens themselves), runs of newlines (`\n`/`\r`), runs of other whitespace,
 * multi-character operators, and single punctuation characters.
 */
export function tokenize(text: string): string[] {
  const chars = Array.from(text);
  const tokens: string[] = [];
  for (let index = 0; index < chars.length; ) {
    const kind = charClass(chars[index] as string);
    if (kind === 'punctuation') {
      const rest = chars.slice(index, index + 4).join('');
      const operator = MULTI_CHAR_PUNCTUATION.find((candidate) => rest.startsWith(candidate));
      const token = operator ?? (chars[index] as string);
      tokens.push(token);
      index += Array.from(token).length;
      continue;
    }
    let end = index + 1;
    while (end < chars.length && charClass(chars[end] as string) === kind) end += 1;
    const run = chars.slice(index, end);
    if (kind === 'identifier') tokens.push(...identifierTokens(run));
    else tokens.push(run.join(''));
    index = end;
  }
  return tokens;
}

/** Whether a token is an identifier piece (alphanumeric or `_` only). */
export function isIdentifierToken(token: string): boolean {
  return token !== '' && Array.from(token).every((char) => ALPHANUMERIC.test(char) || char === '_');
}

const MULTI_CHAR_PUNCTUATION = [
  '>>>=', '<<=', '>>=', '...', '..=', '??=', '**=', '>>>', '::', '->', '=>', '==', '!=', '<=',
  '>=', '&&', '||', '<<', '>>', '..', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '++', '--',
  '**', '??', '?.', ':=', '<-', '//', '/*', '*/',
];

const ALPHANUMERIC = /^[\p{Alphabetic}\p{N}]$/u;
const UPPER = /^\p{Uppercase}$/u;
const LOWER = /^\p{Lowercase}$/u;
const NUMERIC = /^\p{N}$/u;

function charClass(char: string): 'identifier' | 'newline' | 'whitespace' | 'punctuation' {
  if (char === '\n' || char === '\r') return 'newline';
  if (/^\p{White_Space}$/u.test(char)) return 'whitespace';
  if (ALPHANUMERIC.test(char) || char === '_') return 'identifier';
  return 'punctuation';
}

function identifierTokens(chars: string[]): string[] {
  const tokens: string[] = [];
  let segmentStart = 0;
  for (let index = 0; index < chars.length; ) {
    const char = chars[index] as string;
    if (char === '_') {
      if (segmentStart < index) tokens.push(chars.slice(segmentStart, index).join(''));
      let end = index + 1;
      while (end < chars.length && chars[end] === '_') end += 1;
      tokens.push(chars.slice(index, end).join(''));
      segmentStart = end;
      index = end;
      continue;
    }
    if (index > segmentStart && isBoundary(chars[index - 1] as string, char, chars[index + 1])) {
      tokens.push(chars.slice(segmentStart, index).join(''));
      segmentStart = index;
    }
    index += 1;
  }
  if (segmentStart < chars.length) tokens.push(chars.slice(segmentStart).join(''));
  return tokens;
}

/** A hump: lower/digit → Upper, or the last capital of an acronym before a lowercase letter. */
function isBoundary(previous: string, current: string, next: string | undefined): boolean {
  return (
    (UPPER.test(current) && (LOWER.test(previous) || NUMERIC.test(previous))) ||
    (UPPER.test(current) && UPPER.test(previous) && next !== undefined && LOWER.test(next))
  );
}
