import { describe, expect, it } from 'vitest';
import { isEditableRegionCorrect } from '../../../src/editprediction/metrics/editableRegion.js';

describe('isEditableRegionCorrect', () => {
  it('is wrong when the first hunk starts with three or more deletions', () => {
    expect(isEditableRegionCorrect('@@ -1,1 +1,1 @@\n-context\n-removed\n-from the beginning of the file\n import sys\n+sys.exit(0)\n')).toBe(false);
  });

  it('is right for two leading deletions, an empty hunk or no patch', () => {
    expect(isEditableRegionCorrect('@@ -1,2 +1,1 @@\n-a\n-b\n+c\n')).toBe(true);
    expect(isEditableRegionCorrect('@@ -1,1 +1,1 @@\n')).toBe(true);
    expect(isEditableRegionCorrect('')).toBe(true);
  });
});

describe('isEditableRegionCorrect on CRLF patches', () => {
  it('judges the CRLF twin of a patch as its LF twin', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    for (const patch of ['@@ -1,3 +1,1 @@\n-a\n-b\n-c\n+d\n', '@@ -1,2 +1,1 @@\n-a\n-b\n+d\n', '@@ -1,1 +1,1 @@\n-context\n-removed\n-from the beginning of the file\n import sys\n+sys.exit(0)\n']) {
      expect(isEditableRegionCorrect(crlf(patch)), patch).toBe(isEditableRegionCorrect(patch));
    }
    expect(isEditableRegionCorrect(crlf('@@ -1,3 +1,1 @@\n-a\n-b\n-c\n+d\n'))).toBe(false);
  });
});
