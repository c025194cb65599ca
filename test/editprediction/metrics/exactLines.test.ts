import { describe, expect, it } from 'vitest';
import { exactLinesMatch } from '../../../src/editprediction/metrics/exactLines.js';

describe('exactLinesMatch', () => {
  it('counts identical changed lines as true positives, ignoring headers', () => {
    const patch = 'diff --git a/f b/f\nindex 1..2\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n ctx\n-old 1\n-old 2\n+new 1\n+new 2\n';
    expect(exactLinesMatch(patch, patch)).toEqual({ truePositives: 4, falsePositives: 0, falseNegatives: 0 });
  });

  it('scores a partial match as a bag of lines', () => {
    expect(exactLinesMatch('-old line 1\n-old line 2\n+new line 1\n+new line 2', '-old line 1\n+new line 1\n+extra line')).toEqual({
      truePositives: 2,
      falsePositives: 1,
      falseNegatives: 2,
    });
  });

  it('respects multiplicity and whitespace', () => {
    expect(exactLinesMatch('+line a\n+line a\n+line a', '+line a\n+line a')).toEqual({ truePositives: 2, falsePositives: 0, falseNegatives: 1 });
    expect(exactLinesMatch('+    x', '+  x')).toEqual({ truePositives: 0, falsePositives: 1, falseNegatives: 1 });
  });

  it('is all zero for two empty patches', () => {
    expect(exactLinesMatch('', '')).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: 0 });
  });
});

describe('exactLinesMatch on CRLF patches', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');

  it('scores CRLF twins of patches as their LF twins are scored', () => {
    const expected = '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n ctx\n-old 1\n-old 2\n+new 1\n+new 2\n';
    const actual = '-old 1\n+new 1\n+extra line\n';
    expect(exactLinesMatch(crlf(expected), crlf(actual))).toEqual(exactLinesMatch(expected, actual));
  });

  it('counts a line that differs only in its CR as a miss on both sides', () => {
    // "+new\r" (CRLF) and "+new" (LF) are different lines: one false positive, one false negative.
    expect(exactLinesMatch('-old\r\n+new\r\n', '-old\r\n+new\n')).toEqual({ truePositives: 1, falsePositives: 1, falseNegatives: 1 });
  });
});
