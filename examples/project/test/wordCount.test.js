import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordCount } from '../src/wordCount.js';

test('wordCount counts words separated by any whitespace', () => {
  assert.equal(wordCount('one two\nthree\tfour'), 4);
});

test('wordCount of blank text is 0', () => {
  assert.equal(wordCount(''), 0);
  assert.equal(wordCount('   \n '), 0);
});
