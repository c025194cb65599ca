import { readdir, readFile } from 'node:fs/promises';
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

describe('cursor markers in CRLF and mixed texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const lfCount = (text: string) => text.split('\n').length - 1;

  it('decodes a CRLF cursor block byte for byte: only LFs are trimmed, so the last line keeps its CR', () => {
    const block = 'def main():\n    print(greet("world"))\n#         ^[CURSOR_POSITION]\n';
    expect(decodeCursorExcerpt(block)).toEqual({ excerpt: 'def main():\n    print(greet("world"))', offset: 12 + 10 });
    expect(decodeCursorExcerpt(crlf(block))).toEqual({ excerpt: 'def main():\r\n    print(greet("world"))\r', offset: 13 + 10 });
  });

  it('keeps a mixed block as it is: inline marker, lone CR and CRLF lines', () => {
    expect(decodeCursorExcerpt('a\r\nb\rc<|user_cursor|>d\n')).toEqual({ excerpt: 'a\r\nb\rcd\n', offset: 6 });
    expect(decodeCursorExcerpt('a\r\n\tb\r\n   // <[CURSOR_POSITION]\r\nc\n')).toEqual({ excerpt: 'a\r\n\tb\r\nc', offset: 3 + 3 });
  });

  it('decodes every corpus cursor block in CRLF to its LF excerpt with CRs, the cursor on the same character', async () => {
    const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.md'));
    expect(files).toHaveLength(19);
    for (const file of files) {
      const spec = parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
      const lf = decodeCursorExcerpt(spec.cursor_position);
      const twin = decodeCursorExcerpt(crlf(spec.cursor_position));
      const lfBefore = Buffer.from(lf.excerpt).subarray(0, lf.offset).toString();
      // Trailing LFs are trimmed, their CRs stay: what follows the CRLF twin is CRLFs and a CR.
      expect(twin.excerpt.startsWith(crlf(lf.excerpt)), file).toBe(true);
      expect(twin.excerpt.slice(crlf(lf.excerpt).length), file).toMatch(/^(\r\n)*\r?$/);
      if (file === 'terraform--add-comment.md') {
        // The `<` column (3) is past the end of the 2-byte cursor line "\t/": in LF it spills
        // over the LF to the next line's start, in CRLF only over the CR, onto the LF.
        expect(twin.offset, file).toBe(lf.offset + lfCount(lfBefore) - 1);
      } else {
        expect(twin.offset, file).toBe(lf.offset + lfCount(lfBefore));
      }
    }
  });

  it('encodes a CRLF excerpt with a CRLF marker line, the CRLF twin of the LF encoding, and decodes it back', () => {
    const excerpt = 'fn main() {\n    let x = 42;\n    println!("{}", x);\n}';
    for (const [lfOffset, extra] of [[excerpt.indexOf('42'), 1], [excerpt.indexOf('    let'), 1], [excerpt.indexOf('x);'), 2]] as const) {
      const encoded = encodeCursorExcerpt(crlf(excerpt), lfOffset + extra, '//');
      expect(encoded).toBe(crlf(encodeCursorExcerpt(excerpt, lfOffset, '//')));
      expect(decodeCursorExcerpt(encoded)).toEqual({ excerpt: crlf(excerpt), offset: lfOffset + extra });
    }
    const lastLine = 'a\r\nb';
    expect(decodeCursorExcerpt(encodeCursorExcerpt(lastLine, 4, '#'))).toEqual({ excerpt: lastLine, offset: 4 });
    const endsInCr = 'a\r\nb\r';
    expect(decodeCursorExcerpt(encodeCursorExcerpt(endsInCr, 4, '#'))).toEqual({ excerpt: endsInCr, offset: 4 });
  });

  const clean = '--- a/test.rs\n+++ b/test.rs\n@@ -1,3 +1,4 @@\n+// prints a greeting\n fn main() {\n-    println!("hi");\n+    println!("hello, {}", );\n     let x = 42;\n }\n';
  const newContent = '// prints a greeting\nfn main() {\n    println!("hello, {}", );\n    let x = 42;\n}\n';

  it('keeps every CR of a CRLF patch and counts CR bytes in its cursor offset', () => {
    const cursor = crlf(newContent).indexOf(');');
    const encoded = encodeCursorInPatch(crlf(clean), cursor);
    expect(encoded).toBe(crlf(encodeCursorInPatch(clean, newContent.indexOf(');'))));
    expect(extractCursorFromPatch(encoded)).toEqual({ patch: crlf(clean), cursorOffset: cursor });
  });

  it('keeps a mixed patch byte for byte when removing its marker line', () => {
    const patch = '@@ -1,2 +1,3 @@\n a\r\n+b\rc\n#  ^[CURSOR_POSITION]\r\n+d\r\n';
    // New side: "a\r\n" (3 bytes), then "b\rc": the caret at column 3 is byte 2 of that line.
    expect(extractCursorFromPatch(patch)).toEqual({ patch: '@@ -1,2 +1,3 @@\n a\r\n+b\rc\n+d\r\n', cursorOffset: 3 + 2 });
  });

  it('decodes the cursor of every corpus expected patch in CRLF one byte later per new-side line before the cursor’s line', async () => {
    const isNewSide = (line: string) => (line.startsWith('+') && !line.startsWith('+++')) || line.startsWith(' ') || line === '';
    let cursors = 0;
    for (const file of (await readdir(CORPUS_DIR)).filter((name) => name.endsWith('.md'))) {
      const spec = parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
      for (const patch of spec.expected_patches) {
        const lf = extractCursorFromPatch(patch);
        const twin = extractCursorFromPatch(crlf(patch));
        expect(twin.patch, file).toBe(crlf(lf.patch));
        if (lf.cursorOffset === undefined) {
          expect(twin.cursorOffset, file).toBeUndefined();
          continue;
        }
        cursors += 1;
        // The cursor counts from the start of the line the (last) marker follows; each new-side
        // line before that one is a byte longer in CRLF.
        const lines = patch.split('\n');
        const marker = lines.findLastIndex((line) => line.startsWith('#') && line.includes('[CURSOR_POSITION]'));
        const before = lines.slice(0, marker - 1).filter(isNewSide).length;
        expect(twin.cursorOffset, file).toBe(lf.cursorOffset + before);
      }
    }
    expect(cursors).toBeGreaterThan(5);
  });
});
