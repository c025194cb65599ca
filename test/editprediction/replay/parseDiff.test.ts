import { describe, expect, it } from 'vitest';
import { parseDiff, parseDiffLine, stripDiffPathPrefix } from '../../../src/editprediction/replay/parseDiff.js';

describe('parseDiffLine', () => {
  it('classifies each kind of line', () => {
    expect(parseDiffLine('--- a/src/x.rs')).toEqual({ kind: 'oldPath', path: 'src/x.rs' });
    expect(parseDiffLine('+++ b/src/x.rs\t2024-01-01')).toEqual({ kind: 'newPath', path: 'src/x.rs' });
    expect(parseDiffLine('@@ -5,3 +5,4 @@ fn main')).toEqual({ kind: 'hunkHeader', location: { startLineOld: 4, countOld: 3, startLineNew: 4, countNew: 4 } });
    expect(parseDiffLine('@@ -7 +7 @@')).toEqual({ kind: 'hunkHeader', location: { startLineOld: 6, countOld: 1, startLineNew: 6, countNew: 1 } });
    expect(parseDiffLine('@@ ... @@')).toEqual({ kind: 'hunkHeader', location: undefined });
    expect(parseDiffLine(' ctx')).toEqual({ kind: 'context', text: 'ctx' });
    expect(parseDiffLine('')).toEqual({ kind: 'context', text: '' });
    expect(parseDiffLine('-old')).toEqual({ kind: 'deletion', text: 'old' });
    expect(parseDiffLine('---')).toEqual({ kind: 'deletion', text: '--' });
    expect(parseDiffLine('+new')).toEqual({ kind: 'addition', text: 'new' });
    expect(parseDiffLine('\\ No newline at end of file')).toEqual({ kind: 'noNewline' });
    expect(parseDiffLine('def test_static_url_path():')).toEqual({ kind: 'garbage', text: 'def test_static_url_path():' });
    expect(parseDiffLine('@@ -x +1 @@')).toEqual({ kind: 'garbage', text: '@@ -x +1 @@' });
  });

  it('reads quoted and escaped header paths', () => {
    expect(parseDiffLine('--- "a/foo/bar baz.txt"')).toEqual({ kind: 'oldPath', path: 'foo/bar baz.txt' });
    expect(parseDiffLine('+++ "b/say \\"hi\\".txt"')).toEqual({ kind: 'newPath', path: 'say "hi".txt' });
  });
});

describe('parseDiff', () => {
  it('builds hunk context and edits, ignoring header counts', () => {
    const events = parseDiff('--- a/f\n+++ b/f\n@@ -926,0 +926,0 @@\n one\n-two\n+TWO\n three\n');
    expect(events).toEqual([
      {
        kind: 'hunk',
        path: 'f',
        status: 'modified',
        hunk: { context: 'one\ntwo\nthree\n', edits: [{ start: 4, end: 8, text: 'TWO\n' }], startLine: 925, diffLine: 3 },
      },
      { kind: 'fileEnd', oldPath: 'f', newPath: 'f', renamedTo: undefined },
    ]);
  });

  it('ends the hunk and the file at a garbage line; later lines are ignored until a new header', () => {
    const events = parseDiff('--- a/f\n+++ b/f\n ctx\n+add\nnot a diff line\n+ignored\n');
    const hunks = events.filter((event) => event.kind === 'hunk');
    expect(hunks).toHaveLength(1);
    expect(hunks[0]).toMatchObject({ hunk: { context: 'ctx\n', edits: [{ start: 4, end: 4, text: 'add\n' }] } });
  });

  it('honours the first "No newline at end of file" of a hunk only', () => {
    const [event] = parseDiff('--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n line1\n-old\n+new\n line3\n\\ No newline at end of file\n\\ No newline at end of file\n');
    expect(event).toMatchObject({ hunk: { context: 'line1\nold\nline3', edits: [{ start: 6, end: 10, text: 'new\n' }] } });
  });

  it('drops the newline of a deleted last line', () => {
    const [event] = parseDiff('--- a/f\n+++ b/f\n ctx\n-gone\n\\ No newline at end of file\n');
    expect(event).toMatchObject({ hunk: { context: 'ctx\ngone', edits: [{ start: 4, end: 8, text: '' }] } });
  });

  it('reports created files under their new path and renames at file end', () => {
    const created = parseDiff('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n');
    expect(created[0]).toMatchObject({ kind: 'hunk', path: 'new.txt', status: 'created' });
    const renamed = parseDiff('--- a/old.txt\n+++ b/new.txt\n x\n');
    expect(renamed[1]).toEqual({ kind: 'fileEnd', oldPath: 'old.txt', newPath: 'new.txt', renamedTo: 'new.txt' });
  });

  it('splits two file sections and keeps each hunk start line', () => {
    const events = parseDiff('--- a/x\n+++ b/x\n@@ -10,1 +10,1 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -3,1 +3,1 @@\n-c\n+d\n');
    expect(events.map((event) => event.kind)).toEqual(['hunk', 'fileEnd', 'hunk', 'fileEnd']);
    expect(events[2]).toMatchObject({ path: 'y', hunk: { startLine: 2 } });
  });
});

describe('stripDiffPathPrefix', () => {
  it('removes the repository-name component from headers only', () => {
    const diff = '--- a/tree-sitter/src/x.rs\n+++ b/tree-sitter/src/x.rs\n-tree-sitter/x\n';
    expect(stripDiffPathPrefix(diff, 'tree-sitter')).toBe('--- a/src/x.rs\n+++ b/src/x.rs\n-tree-sitter/x\n');
    expect(stripDiffPathPrefix('--- a/src/x\n', 'tree-sitter')).toBe('--- a/src/x\n');
  });
});

describe('CRLF diffs', () => {
  it('reads headers, @@ and No newline lines without their CR and keeps it in content lines', () => {
    expect(parseDiffLine('--- a/src/x.rs\r')).toEqual({ kind: 'oldPath', path: 'src/x.rs' });
    expect(parseDiffLine('+++ b/src/x.rs\r')).toEqual({ kind: 'newPath', path: 'src/x.rs' });
    expect(parseDiffLine('@@ -5,3 +5,4 @@\r')).toEqual({ kind: 'hunkHeader', location: { startLineOld: 4, countOld: 3, startLineNew: 4, countNew: 4 } });
    expect(parseDiffLine('\\ No newline at end of file\r')).toEqual({ kind: 'noNewline' });
    expect(parseDiffLine(' ctx\r')).toEqual({ kind: 'context', text: 'ctx\r' });
    expect(parseDiffLine('-old\r')).toEqual({ kind: 'deletion', text: 'old\r' });
    expect(parseDiffLine('+new\r')).toEqual({ kind: 'addition', text: 'new\r' });
    expect(parseDiffLine('+a\rb')).toEqual({ kind: 'addition', text: 'a\rb' });
  });

  it('treats a CRLF "---" line as a deleted "--" line and a bare CR as an empty context line, as their LF twins', () => {
    expect(parseDiffLine('---\r')).toEqual({ kind: 'deletion', text: '--\r' });
    expect(parseDiffLine('\r')).toEqual({ kind: 'context', text: '\r' });
  });

  it('builds CRLF hunk contexts and edits from a CRLF diff, with the offsets of the bytes', () => {
    const events = parseDiff('--- a/f\r\n+++ b/f\r\n@@ -1,3 +1,3 @@\r\n one\r\n-two\r\n+TWO\r\n\r\n');
    expect(events[0]).toEqual({
      kind: 'hunk',
      path: 'f',
      status: 'modified',
      hunk: { context: 'one\r\ntwo\r\n\r\n', edits: [{ start: 5, end: 10, text: 'TWO\r\n' }], startLine: 0, diffLine: 3 },
    });
  });

  it('drops only the LF of the line a No newline marker follows', () => {
    const [event] = parseDiff('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\r\n\\ No newline at end of file\n+b\n');
    expect(event).toMatchObject({ hunk: { context: 'a\r', edits: [{ start: 0, end: 2, text: 'b\n' }] } });
  });

  it('keeps the CR of rewritten headers when stripping the repository name', () => {
    expect(stripDiffPathPrefix('--- a/demo/x\r\n+++ b/demo/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n', 'demo')).toBe('--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n');
  });
});
