import { describe, expect, it } from 'vitest';
import { byteToIndex, indexToByte, matchIndices, utf8Length } from '../../../src/editprediction/format/rustStr.js';

describe('byte offsets', () => {
  it('converts between UTF-16 indices and UTF-8 byte offsets for multi-byte text', () => {
    const text = 'aé😀b';
    expect(utf8Length(text)).toBe(1 + 2 + 4 + 1);
    expect(indexToByte(text, 2)).toBe(3);
    expect(indexToByte(text, 4)).toBe(7);
    expect(byteToIndex(text, 7)).toBe(4);
    expect(byteToIndex(text, 3)).toBe(2);
  });

  it('rounds a byte offset inside a character down to its start and clamps past the end', () => {
    expect(byteToIndex('a😀', 3)).toBe(1);
    expect(byteToIndex('ab', 99)).toBe(2);
  });
});

describe('matchIndices', () => {
  it('finds non-overlapping occurrences as Rust match_indices', () => {
    expect(matchIndices('aaaa', 'aa')).toEqual([0, 2]);
    expect(matchIndices('xyz', 'q')).toEqual([]);
  });

  it('matches an empty pattern at every character boundary', () => {
    expect(matchIndices('a😀', '')).toEqual([0, 1, 3]);
  });
});
