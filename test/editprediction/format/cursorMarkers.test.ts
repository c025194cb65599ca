import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commentPrefixForPath,
  decodeCursorExcerpt,
  encodeCursorExcerpt,
  encodeCursorInPatch,
  extractCursorFromPatch,
} from '../../../src/editprediction/format/cursorMarkers.js';
import { parseExampleMarkdown } from '../../../src/editprediction/format/parseExampleMarkdown.js';
import { CORPUS_DIR } from '../fixtureDir.js';

async function corpus(name: string) {
  return parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, `${name}.md`), 'utf8'), `${name}.md`);
}

describe('cursor offsets of Zed corpus examples', () => {
  it('zed--add-eprintln: cursor 355 (end of "        epr"), expected-patch cursor 75', async () => {
    const spec = await corpus('zed--add-eprintln');
    const { excerpt, offset } = decodeCursorExcerpt(spec.cursor_position);
    expect(Buffer.byteLength(excerpt)).toBe(502);
    expect(offset).toBe(355);
    expect(excerpt.slice(0, offset).endsWith('        epr')).toBe(true);
    expect(extractCursorFromPatch(spec.expected_patches[0] as string).cursorOffset).toBe(75);
  });

  it('hello-world--rename-accepted-group-by: expected-patch cursor 24', async () => {
    const spec = await corpus('hello-world--rename-accepted-group-by');
    expect(extractCursorFromPatch(spec.expected_patches[0] as string).cursorOffset).toBe(24);
  });

  it('flask--add-import-statement: expected-patch cursors 89 and 96', async () => {
    const spec = await corpus('flask--add-import-statement');
    expect(spec.expected_patches.map((patch) => extractCursorFromPatch(patch).cursorOffset)).toEqual([89, 96]);
  });

  it('terraform--add-comment: the "<" column spills into the next line, cursor 251', async () => {
    const spec = await corpus('terraform--add-comment');
    const { excerpt, offset } = decodeCursorExcerpt(spec.cursor_position);
    expect(offset).toBe(251);
    expect(excerpt.slice(offset).startsWith('\tresult := []addrs.AbsActionInstance{}')).toBe(true);
  });

  it('vscode--add-class-decorator: "<" at column 0 of "export class TextEdit {", cursor 16', async () => {
    const spec = await corpus('vscode--add-class-decorator');
    const { excerpt, offset } = decodeCursorExcerpt(spec.cursor_position);
    expect(Buffer.byteLength(excerpt)).toBe(143);
    expect(offset).toBe(16);
    expect(excerpt.slice(offset).startsWith('export class TextEdit {')).toBe(true);
  });
});

describe('decodeCursorExcerpt', () => {
  it('prefers the inline marker and keeps the trailing newline', () => {
    expect(decodeCursorExcerpt('fn main() {\n    let x = <|user_cursor|>42;\n}\n')).toEqual({ excerpt: 'fn main() {\n    let x = 42;\n}\n', offset: 24 });
  });

  it('strips trailing newlines in comment form', () => {
    expect(decodeCursorExcerpt('abc\n# ^[CURSOR_POSITION]\n\n\n')).toEqual({ excerpt: 'abc', offset: 2 });
  });

  it('counts byte columns in multi-byte text', () => {
    // "héllo" has é (2 bytes); the caret under "l" sits at byte column 3 of the marker line.
    const { excerpt, offset } = decodeCursorExcerpt('héllo wörld\n#  ^[CURSOR_POSITION]\nnext');
    expect(excerpt).toBe('héllo wörld\nnext');
    expect(offset).toBe(3);
    expect(Buffer.from(excerpt).subarray(offset).toString().startsWith('llo')).toBe(true);
  });

  it('rejects a block without a marker, and a marker line without ^ or <', () => {
    expect(() => decodeCursorExcerpt('no marker here')).toThrow('missing [CURSOR_POSITION] marker');
    expect(() => decodeCursorExcerpt('x\n// [CURSOR_POSITION]')).toThrow("cursor position marker line must contain '^' or '<' before [CURSOR_POSITION]");
  });
});

describe('encodeCursorExcerpt (set_cursor_excerpt rules)', () => {
  const excerpt = 'fn main() {\n    let x = 42;\n    println!("{}", x);\n}';
  const cases: Array<[string, number, string]> = [
    ['before 42', excerpt.indexOf('42'), '    //      ^[CURSOR_POSITION]'],
    ['after l of let', excerpt.indexOf('et x'), '//   ^[CURSOR_POSITION]'],
    ['before let', excerpt.indexOf('let'), '//  ^[CURSOR_POSITION]'],
    ['start of line', excerpt.indexOf('    let'), '// <[CURSOR_POSITION]'],
    ['after semicolon', excerpt.indexOf(';') + 1, '    //         ^[CURSOR_POSITION]'],
  ];
  it.each(cases)('cursor %s', (_label, offset, markerLine) => {
    const encoded = encodeCursorExcerpt(excerpt, offset, '//');
    expect(encoded).toBe(excerpt.replace('    let x = 42;\n', `    let x = 42;\n${markerLine}\n`));
    expect(decodeCursorExcerpt(encoded)).toEqual({ excerpt, offset });
  });

  it('appends the marker after a last line without newline', () => {
    const text = 'fn main() {\n    let x = 42;';
    const encoded = encodeCursorExcerpt(text, text.length, '//');
    expect(encoded).toBe('fn main() {\n    let x = 42;\n    //         ^[CURSOR_POSITION]');
    expect(decodeCursorExcerpt(encoded)).toEqual({ excerpt: text, offset: text.length });
  });

  it('measures columns in bytes for multi-byte lines', () => {
    const text = 'let s = "é";\nnext';
    const offset = Buffer.byteLength('let s = "é"');
    const encoded = encodeCursorExcerpt(text, offset, '//');
    expect(decodeCursorExcerpt(encoded)).toEqual({ excerpt: text, offset });
  });
});

describe('patch cursors', () => {
  const clean = '--- a/test.rs\n+++ b/test.rs\n@@ -1,3 +1,4 @@\n+// prints a greeting\n fn main() {\n-    println!("hi");\n+    println!("hello, {}", );\n     let x = 42;\n }\n';
  const newContent = '// prints a greeting\nfn main() {\n    println!("hello, {}", );\n    let x = 42;\n}\n';
  const cursor = newContent.indexOf(');');

  it('encodes after the first added line holding the offset and decodes back', () => {
    const encoded = encodeCursorInPatch(clean, cursor);
    expect(encoded).toContain('+    println!("hello, {}", );\n#                          ^[CURSOR_POSITION]\n');
    expect(extractCursorFromPatch(encoded)).toEqual({ patch: clean, cursorOffset: cursor });
  });

  it('is idempotent and leaves a patch without cursor unchanged', () => {
    const once = encodeCursorInPatch(clean, cursor);
    expect(encodeCursorInPatch(once, cursor)).toBe(once);
    expect(encodeCursorInPatch(clean, undefined)).toBe(clean);
    expect(extractCursorFromPatch(clean)).toEqual({ patch: clean, cursorOffset: undefined });
  });

  it('does not encode a cursor that falls on a context line only', () => {
    expect(encodeCursorInPatch(clean, newContent.indexOf('let x'))).toBe(clean);
  });

  it('keeps counting across hunks and lets the last marker win', () => {
    const patch = '@@ -1 +1 @@\n-a\n+b\n#^[CURSOR_POSITION]\n@@ -9 +9 @@\n-c\n+dd\n#  ^[CURSOR_POSITION]\n';
    // "b\n" is 2 bytes of new-side text; the caret at column 3 means byte 2 of "dd".
    expect(extractCursorFromPatch(patch)).toEqual({ patch: '@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+dd\n', cursorOffset: 2 + 2 });
  });
});

describe('commentPrefixForPath', () => {
  it('uses # for Python and extension-less files, // for C-like languages', () => {
    expect(commentPrefixForPath('src/flask/logging.py')).toBe('#');
    expect(commentPrefixForPath('README')).toBe('#');
    expect(commentPrefixForPath('src/main.rs')).toBe('//');
    expect(commentPrefixForPath('query.sql')).toBe('--');
  });
});
