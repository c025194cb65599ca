import { describe, expect, it } from 'vitest';
import { diffSequences } from '../../../src/editprediction/replay/sequenceDiff.js';

describe('diffSequences', () => {
  it('reports changed blocks between matching runs (Myers, minimal)', () => {
    expect(diffSequences(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 2 },
      { oldStart: 4, oldEnd: 4, newStart: 4, newEnd: 5 },
    ]);
    expect(diffSequences(['a'], ['a'])).toEqual([]);
    expect(diffSequences([], ['z'])).toEqual([{ oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 1 }]);
  });

  it('keeps a longest common subsequence: edits = |a| + |b| − 2·LCS', () => {
    const a = 'the quick brown fox jumps over the lazy dog'.split('');
    const b = 'a quick brown cat jumped over lazy dogs'.split('');
    const edits = diffSequences(a, b).reduce((sum, block) => sum + (block.oldEnd - block.oldStart) + (block.newEnd - block.newStart), 0);
    expect(edits).toBe(a.length + b.length - 2 * lcsLength(a, b));
  });

  it('anchors on rare elements with the histogram algorithm', () => {
    const before = ['a', '_', 'b', '_', 'c'];
    const after = ['_', 'a', '__', 'b', '__', 'c', '__'];
    // Histogram keeps a, b and c and inserts/replaces around them.
    expect(diffSequences(before, after, 'histogram')).toEqual([
      { oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 1 },
      { oldStart: 1, oldEnd: 2, newStart: 2, newEnd: 3 },
      { oldStart: 3, oldEnd: 4, newStart: 4, newEnd: 5 },
      { oldStart: 5, oldEnd: 5, newStart: 6, newEnd: 7 },
    ]);
  });
});

function lcsLength(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      (table[i] as number[])[j] = a[i - 1] === b[j - 1] ? (table[i - 1] as number[])[j - 1]! + 1 : Math.max((table[i - 1] as number[])[j]!, (table[i] as number[])[j - 1]!);
    }
  }
  return (table[a.length] as number[])[b.length]!;
}
