import { describe, expect, it } from 'vitest';
import { applyDiffToString, applyDiffWithHunkOffset } from '../../../src/editprediction/replay/applyDiff.js';
import { FormatError } from '../../../src/errors.js';

const header = '--- a/f\n+++ b/f\n';

describe('applyDiffToString', () => {
  it('applies a hunk whose context occurs once', () => {
    expect(applyDiffToString(`${header}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`, 'a\nb\nc\n')).toBe('a\nB\nc\n');
  });

  it('applies hunks in order, each on the text the previous one produced', () => {
    const diff = `${header}@@ -1 +1 @@\n-one\n+uno\n@@ -3 +3 @@\n-three\n+tres\n`;
    expect(applyDiffToString(diff, 'one\ntwo\nthree\n')).toBe('uno\ntwo\ntres\n');
  });

  it('uses the @@ old start line to choose among repeated contexts', () => {
    const text = 'x\nsame\nx\nsame\n';
    expect(applyDiffToString(`${header}@@ -4,1 +4,1 @@\n-same\n+changed\n`, text)).toBe('x\nsame\nx\nchanged\n');
    expect(applyDiffToString(`${header}@@ -2,1 +2,1 @@\n-same\n+changed\n`, text)).toBe('x\nchanged\nx\nsame\n');
  });

  it("fails with couldn't resolve hunk when repeated context has no usable line number", () => {
    expect(() => applyDiffToString(`${header}-same\n+changed\n`, 'same\nsame\n')).toThrow(/couldn't resolve hunk: its context matched 2 times/);
    expect(() => applyDiffToString(`${header}-same\n+changed\n`, 'same\nsame\n')).toThrow(FormatError);
  });

  it("fails with couldn't resolve hunk when the context is absent", () => {
    expect(() => applyDiffToString(`${header} nowhere\n+x\n`, 'a\n')).toThrow("couldn't resolve hunk: its context was not found");
  });

  it('tolerates a missing final newline at end of text (no "No newline" marker)', () => {
    expect(applyDiffToString(`${header} a\n-b\n+c\n`, 'a\nb')).toBe('a\nc');
    // An insertion after the phantom newline is clamped before it, as upstream does.
    expect(applyDiffToString(`${header} a\n+b\n`, 'a')).toBe('ab');
  });

  it('returns the text unchanged for an empty diff', () => {
    expect(applyDiffToString('', 'same')).toBe('same');
  });

  it('reports the byte offset where the first hunk matched', () => {
    const { text, firstHunkOffset } = applyDiffWithHunkOffset(`${header} b\n-c\n+C\n`, 'é\nb\nc\n');
    expect(text).toBe('é\nb\nC\n');
    expect(firstHunkOffset).toBe(3);
  });
});

describe('applyDiffToString on CRLF and mixed texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  it('applies a CRLF diff to a CRLF text byte for byte, as its LF twin applies', () => {
    const diff = `${header}@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n`;
    expect(applyDiffToString(crlf(diff), crlf('a\nb\nc\n'))).toBe(crlf(applyDiffToString(diff, 'a\nb\nc\n')));
  });

  it('keeps each line’s own ending in a mixed text, a lone CR included', () => {
    expect(applyDiffToString(`${header} a\r\n-b\n+B\r\n c\rd\n`, 'a\r\nb\nc\rd\n')).toBe('a\r\nB\r\nc\rd\n');
  });

  it('does not match an LF context in a CRLF text (line endings are bytes)', () => {
    expect(() => applyDiffToString(`${header} a\n-b\n+B\n`, 'a\r\nb\r\n')).toThrow("couldn't resolve hunk: its context was not found");
  });

  it('tolerates a whole CRLF missing at end of text, as an LF one', () => {
    expect(applyDiffToString(crlf(`${header} a\n-b\n+c\n`), 'a\r\nb')).toBe('a\r\nc');
    expect(applyDiffToString(crlf(`${header} a\n+b\n`), 'a')).toBe('ab');
    // A text that ends in a lone CR still loses only the LF.
    expect(applyDiffToString(crlf(`${header} a\n-b\n+c\n`), 'a\r\nb\r')).toBe('a\r\nc\r');
  });

  it('counts the CRs in the first hunk’s byte offset', () => {
    expect(applyDiffWithHunkOffset(crlf(`${header} b\n-c\n+C\n`), crlf('é\nb\nc\n')).firstHunkOffset).toBe(4);
  });
});
