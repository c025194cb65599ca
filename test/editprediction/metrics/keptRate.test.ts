import { describe, expect, it } from 'vitest';
import { computeKeptRate, lcsKeepMasks } from '../../../src/editprediction/metrics/keptRate.js';

describe('computeKeptRate', () => {
  it('is 1 when nothing changes anywhere, and when the candidate equals the reference', () => {
    expect(computeKeptRate('foo bar', 'foo bar', 'foo bar')).toMatchObject({ keptRate: 1, recallRate: 1, candidateNewChars: 0 });
    expect(computeKeptRate('old', 'new', 'new')).toMatchObject({ keptRate: 1, recallRate: 1 });
  });

  it('is 0 when the candidate changes nothing but the reference does', () => {
    expect(computeKeptRate('old', 'old', 'new')).toMatchObject({ keptRate: 0, recallRate: 0 });
  });

  it('keeps the shared part of two different insertions (hand-computed)', () => {
    // New units: candidate [" ", "bar"], reference [" ", "baz"]; only " " (1 byte) is shared.
    expect(computeKeptRate('foo', 'foo bar', 'foo baz')).toEqual({
      candidateNewChars: 4,
      referenceNewChars: 4,
      candidateDeletedChars: 0,
      referenceDeletedChars: 0,
      keptChars: 1,
      correctlyDeletedChars: 0,
      discardedChars: 3,
      keptRate: 0.25,
      recallRate: 0.25,
    });
  });

  it('credits deletions both make and counts bytes of multi-byte text', () => {
    // Base units [héllo, " ", wörld]; both delete " wörld" (7 bytes); the reference also adds "!".
    const result = computeKeptRate('héllo wörld', 'héllo', 'héllo!');
    expect(result).toMatchObject({ candidateDeletedChars: 7, referenceDeletedChars: 7, correctlyDeletedChars: 7, referenceNewChars: 1, keptChars: 0 });
    expect(result.keptRate).toBe(1);
    expect(result.recallRate).toBe(7 / 8);
  });

  it('bails out to 0 when the two edits change the length by very different amounts', () => {
    expect(computeKeptRate('', 'x'.repeat(600), 'y')).toMatchObject({ keptRate: 0, recallRate: 0, discardedChars: 600 });
  });
});

describe('lcsKeepMasks', () => {
  it('marks the elements on a longest common subsequence', () => {
    expect(lcsKeepMasks(['a', 'b', 'c', 'd', 'e'], ['a', 'c', 'e'])).toEqual([[true, false, true, false, true], [true, true, true]]);
    expect(lcsKeepMasks([], ['x'])).toEqual([[], [false]]);
  });
});

describe('computeKeptRate on CRLF texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  it('gives CRLF twins the LF twins’ rates, a CRLF counting one byte more than an LF', () => {
    const lf = computeKeptRate('a\nb\n', 'a\nx\nb\n', 'a\nx\nb\n');
    const twin = computeKeptRate(crlf('a\nb\n'), crlf('a\nx\nb\n'), crlf('a\nx\nb\n'));
    expect([twin.keptRate, twin.recallRate]).toEqual([lf.keptRate, lf.recallRate]);
    // New units: "x" and a line end ("\n", or "\r\n": one more byte).
    expect([lf.keptChars, twin.keptChars]).toEqual([2, 3]);
    // Candidate adds "x\n" and "y\n", the reference "x\n": kept [x, line end] of the
    // candidate's [x, line end, y, line end], so 2/4 bytes in LF and 3/6 in CRLF.
    const partial = computeKeptRate(crlf('a\nb\n'), crlf('a\nx\ny\nb\n'), crlf('a\nx\nb\n'));
    expect(partial).toMatchObject({ candidateNewChars: 6, referenceNewChars: 3, keptChars: 3, keptRate: 0.5, recallRate: 1 });
    expect(computeKeptRate('a\nb\n', 'a\nx\ny\nb\n', 'a\nx\nb\n')).toMatchObject({ candidateNewChars: 4, keptChars: 2, keptRate: 0.5, recallRate: 1 });
  });

  it('keeps only the shared part when the candidate’s new line ends in LF and the reference’s in CRLF (hand-computed)', () => {
    // Base [a, "\r\n"]; candidate new [b, "\n"] (2 bytes), reference new [b, "\r\n"] (3 bytes);
    // only "b" is on their common subsequence: kept 1, discarded 1.
    expect(computeKeptRate('a\r\n', 'a\r\nb\n', 'a\r\nb\r\n')).toEqual({
      candidateNewChars: 2,
      referenceNewChars: 3,
      candidateDeletedChars: 0,
      referenceDeletedChars: 0,
      keptChars: 1,
      correctlyDeletedChars: 0,
      discardedChars: 1,
      keptRate: 0.5,
      recallRate: 1 / 3,
    });
  });
});
