/**
 * Known-good answers to the shipped eval cases (eval_sets/), as the files a candidate writes
 * into the sandbox (path → full content). Tests use them to prove that every case is solvable
 * and that its postconditions tell a right answer from a wrong one; a scripted mock model can
 * write the same files.
 */
export const REFERENCE_SOLUTIONS: Record<string, Record<string, string>> = {
  'add-truncate': {
    'src/truncate.js': `/**
 * Shorten text to at most \`max\` characters, marking a cut with one ellipsis character.
 *
 * @param {string} text
 * @param {number} max
 * @returns {string}
 */
export function truncate(text, max) {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
`,
    'test/truncate.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { truncate } from '../src/truncate.js';

test('truncate keeps text that fits', () => {
  assert.equal(truncate('hello', 5), 'hello');
});

test('truncate cuts long text to max characters ending in an ellipsis', () => {
  assert.equal(truncate('hello world', 8), 'hello w…');
});
`,
  },
  'fix-slug-dashes': {
    'src/slug.js': `/**
 * Turn a post title into a URL slug: lower case, ASCII letters and digits, words joined by
 * single dashes. Used for post URLs, so the same title must always give the same slug.
 *
 * @param {string} title
 * @returns {string}
 */
export function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`,
    'test/slug.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../src/slug.js';

test('slugify lower-cases and joins words with a dash', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('slugify keeps digits', () => {
  assert.equal(slugify('Top 10 tips'), 'top-10-tips');
});

test('slugify turns a run of punctuation into one dash and trims dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});
`,
  },
  'reading-time-clarify': {
    'src/readingTime.js': `import { wordCount } from './wordCount.js';

/**
 * Minutes needed to read a post at 200 words per minute, rounded up, at least 1.
 *
 * @param {string} text
 * @returns {number}
 */
export function readingTime(text) {
  return Math.max(1, Math.ceil(wordCount(text) / 200));
}
`,
    'test/readingTime.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readingTime } from '../src/readingTime.js';

const words = (n) => Array(n).fill('word').join(' ');

test('readingTime is at least one minute', () => {
  assert.equal(readingTime(''), 1);
});

test('readingTime rounds up at 200 words per minute', () => {
  assert.equal(readingTime(words(200)), 1);
  assert.equal(readingTime(words(201)), 2);
});
`,
  },
};

/** Plausible wrong answers, one per case, that a hard postcondition must catch. */
export const WRONG_SOLUTIONS: Record<string, Record<string, string>> = {
  'add-truncate': {
    ...REFERENCE_SOLUTIONS['add-truncate'],
    // Cuts to max and then appends, one character too long.
    'src/truncate.js': `export function truncate(text, max) {\n  return text.length <= max ? text : text.slice(0, max) + '…';\n}\n`,
  },
  'fix-slug-dashes': {
    // Collapses runs but leaves the trailing dash, and adds no test.
    'src/slug.js': `export function slugify(title) {\n  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-');\n}\n`,
  },
  'reading-time-clarify': {
    ...REFERENCE_SOLUTIONS['reading-time-clarify'],
    // The candidate's own first guess: rounds to the nearest minute.
    'src/readingTime.js': `import { wordCount } from './wordCount.js';\nexport function readingTime(text) {\n  return Math.max(1, Math.round(wordCount(text) / 200));\n}\n`,
  },
};

/**
 * The skill pair's solutions (kept apart: the pair's point is whether a skill fires, which a
 * file written by a script cannot show). add-wordcount-test adds one test; explain-wordcount
 * changes nothing, and its wrong solution is the test it was not asked for.
 */
export const SKILL_PAIR_SOLUTIONS: Record<string, { reference: Record<string, string>; wrong: Record<string, string> }> = {
  'add-wordcount-test': {
    reference: {
      'test/wordCount.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordCount } from '../src/wordCount.js';

test('wordCount counts words separated by any whitespace', () => {
  assert.equal(wordCount('one two\\nthree\\tfour'), 4);
});

test('wordCount counts a hyphenated word as one word', () => {
  assert.equal(wordCount('a well-known fact'), 3);
});
`,
    },
    wrong: { 'src/wordCount.js': "export function wordCount(text) { return text.split(/[\\s-]+/).filter(Boolean).length; }\n" },
  },
  'explain-wordcount': {
    reference: {},
    wrong: { 'test/wordCount.test.js': "import { test } from 'node:test';\ntest('tabs separate words', () => {});\n" },
  },
};

/**
 * A `command` agent (a Node script) that writes the reference solution of its run's case, taken
 * from `solutions`, except for the cases in `breaks`. The solutions are in the script itself: a
 * contained candidate cannot read the test's folder.
 */
export function solverScript(solutions: Record<string, Record<string, string> | undefined>, breaks: readonly string[]): string {
  return [
    '#!/usr/bin/env node',
    "const fs = require('fs'), path = require('path');",
    `const solutions = ${JSON.stringify(solutions)};`,
    "const caseId = Object.keys(solutions).find((id) => process.env.EVALFLOW_RUN_ID.startsWith(`run-${id}-`));",
    `if (!${JSON.stringify(breaks)}.includes(caseId)) for (const [file, content] of Object.entries(solutions[caseId])) { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, content); }`,
    "console.log('Done.');",
    '',
  ].join('\n');
}
