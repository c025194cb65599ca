import { describe, expect, it } from 'vitest';
import { predictionReversalRatio, reversalOverlap } from '../../../src/editprediction/metrics/reversal.js';
import type { EditEvent } from '../../../src/editprediction/format/schema.js';

describe('reversalOverlap (cases from Zed’s reversal tests)', () => {
  const cases: Array<[string, string, string, string, number, number]> = [
    ['user adds a line, prediction removes it', 'a\nb\nc', 'a\nnew line\nb\nc', 'a\nb\nc', 9, 9],
    ['user deletes a line, prediction restores it', 'a\ndeleted\nb', 'a\nb', 'a\ndeleted\nb', 8, 8],
    ['prediction restores deleted text', 'hello beautiful world', 'hello world', 'hello beautiful world', 10, 10],
    ['user deletes foo, prediction adds bar', 'foo', '', 'bar', 0, 3],
    ['independent edits', 'line1\nline2\nline3', 'LINE1\nline2\nline3', 'LINE1\nline2\nLINE3', 0, 10],
    ['no history edits', 'same', 'same', 'different', 0, 13],
    ['prediction reverses a replacement', 'keep\ndelete_me\nkeep2', 'keep\nadded\nkeep2', 'keep\ndelete_me\nkeep2', 14, 14],
    ['prediction modifies the same word differently', 'the quick brown fox', 'the slow brown fox', 'the fast brown fox', 4, 8],
    ['completing a suffix', '', 'epr', 'eprintln!()', 0, 8],
    ['completing a prefix', '', 'my_function()', 'test_my_function()', 0, 5],
    ['extending in several places', '', 'test_my_function', 'a_test_for_my_special_function_plz', 0, 18],
    ['interleaved underscores', '', 'a_b_c', '_a__b__c__', 0, 5],
    ['different characters', '', 'abc', 'xyz', 3, 6],
    ['wrong order', '', 'abc', 'cba', 3, 6],
    ['partial subsequence', '', 'abcd', 'axbx', 4, 8],
    ['completing a method call', '', 'vec.pu', 'vec.push(item)', 0, 8],
    ['completing an import', '', 'use std::col', 'use std::collections::HashMap', 0, 17],
    ['completing a field type', '', 'name: St', 'name: String', 0, 4],
    ['replacing with different text', '', 'hello', 'world', 5, 10],
    ['empty prediction removes user text', '', 'mistake', '', 7, 7],
    ['fixing a typo', '', '<dv', '<div>', 0, 2],
    ['infix insertion', 'from my_project import Foo\n', 'ifrom my_project import Foo\n', 'import\nfrom my_project import Foo\n', 0, 6],
    ['non-word reversal', 'from', 'ifrom', 'from', 1, 1],
    ['multiple insertions', 'print("Hello, World!")', 'sys.("Hello, World!")', 'sys.stdout.write("Hello, World!\\n")', 0, 14],
  ];
  it.each(cases)('%s', (_name, original, current, predicted, reversing, total) => {
    expect(reversalOverlap(original, current, predicted)).toEqual({ reversing, total });
  });
});

describe('predictionReversalRatio', () => {
  const event = (diff: string, predicted = false, path = 'repo/src/a.txt'): EditEvent => ({
    event: 'BufferChange',
    path,
    old_path: path,
    diff,
    predicted,
    in_open_source_repo: false,
  });
  // The user just added "new line"; a prediction that deletes it reverses all of its edit.
  const current = 'a\nnew line\nb\nc\n';
  const diff = '@@ -1,3 +1,4 @@\n a\n+new line\n b\n c\n';

  it('is the reversed share of the prediction for the last user edit of the cursor file', () => {
    expect(predictionReversalRatio(current, [event(diff)], undefined, 'a\nb\nc\n', 'src/a.txt')).toBe(1);
    expect(predictionReversalRatio(current, [event(diff)], 0, 'a\nb\nc\n', 'src/a.txt')).toBe(1);
  });

  it('is 0 when the last edit was an accepted prediction, or for another file, or without history', () => {
    expect(predictionReversalRatio(current, [event(diff, true)], undefined, 'a\nb\nc\n', 'src/a.txt')).toBe(0);
    expect(predictionReversalRatio(current, [event(diff, false, 'repo/src/other.txt')], undefined, 'a\nb\nc\n', 'src/a.txt')).toBe(0);
    expect(predictionReversalRatio(current, [], undefined, 'a\nb\nc\n', 'src/a.txt')).toBe(0);
  });

  it('only counts the part of the edit inside the excerpt when its start row is known', () => {
    // The excerpt starts at file row 1 ("new line"): rolling back inside it removes that row.
    const excerpt = 'new line\nb\nc\n';
    expect(predictionReversalRatio(excerpt, [event(diff)], 1, 'b\nc\n', 'src/a.txt')).toBe(1);
    expect(predictionReversalRatio(excerpt, [event(diff)], 1, 'new line\nb\nc\nd\n', 'src/a.txt')).toBe(0);
  });
});

describe('predictionReversalRatio on CRLF texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const event = (diff: string): EditEvent => ({ event: 'BufferChange', path: 'repo/src/a.txt', old_path: 'repo/src/a.txt', diff, predicted: false, in_open_source_repo: false });
  const current = 'a\nnew line\nb\nc\n';
  const diff = '@@ -1,3 +1,4 @@\n a\n+new line\n b\n c\n';

  it('gives the CRLF twin of the history and texts the LF twin’s ratio, with and without the excerpt row', () => {
    for (const [row, excerpt, predicted] of [
      [undefined, current, 'a\nb\nc\n'],
      [0, current, 'a\nb\nc\n'],
      [1, 'new line\nb\nc\n', 'b\nc\n'],
      [undefined, current, 'a\nnew\nb\nc\n'],
    ] as const) {
      const lf = predictionReversalRatio(excerpt, [event(diff)], row, predicted, 'src/a.txt');
      expect(predictionReversalRatio(crlf(excerpt), [event(crlf(diff))], row, crlf(predicted), 'src/a.txt'), `${row} ${predicted}`).toBe(lf);
    }
    // An empty context line that lost its space: "" in LF, a bare CR in CRLF.
    const withBlank = '@@ -1,4 +1,5 @@\n a\n\n+new line\n b\n c\n';
    for (const row of [undefined, 0]) {
      const lf = predictionReversalRatio('a\n\nnew line\nb\nc\n', [event(withBlank)], row, 'a\n\nb\nc\n', 'src/a.txt');
      expect(lf).toBe(1);
      expect(predictionReversalRatio(crlf('a\n\nnew line\nb\nc\n'), [event(crlf(withBlank))], row, crlf('a\n\nb\nc\n'), 'src/a.txt'), `${row}`).toBe(lf);
    }
    expect(predictionReversalRatio(crlf(current), [event(crlf(diff))], 0, crlf('a\nb\nc\n'), 'src/a.txt')).toBe(1);
  });

  it('finds the user’s edit in an excerpt that ends before its last CRLF', () => {
    // The prompt's excerpt stops before the last row's line end; the CRLF context still fits.
    expect(predictionReversalRatio('a\r\nnew line\r\nb\r\nc', [event(crlf(diff))], 0, 'a\r\nb\r\nc', 'src/a.txt')).toBe(1);
  });
});
