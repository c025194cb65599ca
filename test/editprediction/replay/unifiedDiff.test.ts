import { describe, expect, it } from 'vitest';
import { applyDiffToString } from '../../../src/editprediction/replay/applyDiff.js';
import { unifiedDiff } from '../../../src/editprediction/replay/unifiedDiff.js';

describe('unifiedDiff', () => {
  it('writes headers, a hunk header with counts and three lines of context', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
    const after = 'l1\nl2\nl3\nl4\nL5\nl6\nl7\nl8\n';
    expect(unifiedDiff(before, after, { path: 'src/a.txt' })).toBe(
      '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n',
    );
  });

  it('shifts line numbers by lineOffset and omits headers without a path', () => {
    expect(unifiedDiff('a\n', 'b\n', { lineOffset: 100 })).toBe('@@ -101,1 +101,1 @@\n-a\n+b\n');
  });

  it('returns an empty string for equal texts', () => {
    expect(unifiedDiff('same\n', 'same\n', { path: 'x' })).toBe('');
  });

  it('marks a missing final newline on one side only', () => {
    expect(unifiedDiff('a\n', 'a\nb', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n');
    expect(unifiedDiff('a\nb', 'a\nb\n', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
  });

  const cases: Array<[string, string]> = [
    ['a\nb\nc\n', 'a\nc\n'],
    ['', 'new file\n'],
    ['gone\n', ''],
    ['x', 'y'],
    ['a\nb', 'a\nc'],
    ['a\n', 'a'],
    ['p\nq\nr\ns\nt\nu\nv\nw\nx\ny\nz\n', 'P\nq\nr\ns\nt\nu\nv\nw\nx\ny\nZ\n'],
    ['fn main() {\n    épr\n}\n', 'fn main() {\n    eprintln!("😀");\n}\n'],
    ['same\nsame\nsame\n', 'same\nother\nsame\n'],
  ];
  it.each(cases)('round-trips through Zed-style application: %j → %j', (before, after) => {
    expect(applyDiffToString(unifiedDiff(before, after, { path: 'f' }), before)).toBe(after);
  });
});

describe('unifiedDiff on CRLF and mixed texts', () => {
  it('writes each line with its own ending, and the LF twin’s diff with CRs where the lines have them', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const before = 'l1\nl2\nl3\nl4\nl5\n';
    const after = 'l1\nl2\nL3\nl4\nl5\n';
    const lfDiff = unifiedDiff(before, after, { path: 'f' });
    const crlfDiff = unifiedDiff(crlf(before), crlf(after), { path: 'f' });
    expect(crlfDiff).toBe(lfDiff.replace(/^([ +-].*)$/gm, (line) => (line.startsWith('---') || line.startsWith('+++') ? line : `${line}\r`)));
    expect(crlfDiff).toBe('--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n l1\r\n l2\r\n-l3\r\n+L3\r\n l4\r\n l5\r\n');
  });

  const cases: Array<[string, string]> = [
    ['a\r\nb\r\nc\r\n', 'a\r\nc\r\n'],
    ['a\r\nb\nc\r\n', 'a\r\nB\nc\r\n'],
    ['a\r\n', 'a\n'],
    ['a\rb\r\n', 'a\rB\r\n'],
    ['a\r\nb', 'a\r\nc'],
    ['a\r\nb\r', 'a\r\nb'],
    ['', 'new\r\nfile\r\n'],
  ];
  it.each(cases)('round-trips through Zed-style application byte for byte: %j → %j', (before, after) => {
    expect(applyDiffToString(unifiedDiff(before, after, { path: 'f' }), before)).toBe(after);
  });
});
