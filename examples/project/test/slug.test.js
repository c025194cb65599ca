import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slug.js';

test('slugify lower-cases and joins words with a dash', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('slugify keeps digits', () => {
  assert.equal(slugify('Top 10 tips'), 'top-10-tips');
});
