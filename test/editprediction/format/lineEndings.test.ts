import { describe, expect, it } from 'vitest';
import { isCrlfThroughout, normalizeLineEndings, splitLines, withoutCr } from '../../../src/editprediction/format/lineEndings.js';

describe('splitLines', () => {
  it('splits at LF only and keeps the CR of CRLF lines and lone CRs', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a\r', 'b']);
    expect(splitLines('a\rb\r\n\r\nc')).toEqual(['a\rb\r', '\r', 'c']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLines('')).toEqual([]);
  });

  it('gives the text back when joined with LF (plus the final LF)', () => {
    for (const text of ['x\r\ny\r\n', 'x\ny\r\n\rz\n', 'no newline\r']) {
      const lines = splitLines(text);
      expect(lines.join('\n') + (text.endsWith('\n') ? '\n' : '')).toBe(text);
    }
  });
});

describe('withoutCr', () => {
  it('drops only the CR of a CRLF ending', () => {
    expect(withoutCr('a\r')).toBe('a');
    expect(withoutCr('a\rb')).toBe('a\rb');
    expect(withoutCr('a')).toBe('a');
  });
});

describe('normalizeLineEndings', () => {
  it('turns CRLF and lone CR into LF, as Zed’s buffers hold text', () => {
    expect(normalizeLineEndings('a\r\nb\rc\nd\r\r\n')).toBe('a\nb\nc\nd\n\n');
  });
});

describe('isCrlfThroughout', () => {
  it('holds when there is a line end and every LF ends a CRLF', () => {
    expect(isCrlfThroughout('a\r\nb\r\n')).toBe(true);
    expect(isCrlfThroughout('\r\nb')).toBe(true);
    expect(isCrlfThroughout('a\r\nb\n')).toBe(false);
    expect(isCrlfThroughout('\nb\r\n')).toBe(false);
    expect(isCrlfThroughout('no line end\r')).toBe(false);
  });
});
