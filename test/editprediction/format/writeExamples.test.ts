import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import { ExampleSchema } from '../../../src/editprediction/format/schema.js';
import { sanitizedFileName, writeJsonl, writeMarkdownDir } from '../../../src/editprediction/format/writeExamples.js';
import { writeFixtures } from '../fixtureDir.js';

const example = ExampleSchema.parse({
  name: 'fix: a/b <c>',
  repository_url: 'u',
  revision: 'r',
  cursor_path: 'a.rs',
  cursor_position: 'x\n// ^[CURSOR_POSITION]\n',
  edit_history: '',
  expected_patches: [],
});

describe('writeJsonl', () => {
  it('appends like ep -o and replaces like --in-place', async () => {
    const file = path.join(await writeFixtures({}), 'out', 'examples.jsonl');
    await writeJsonl(file, [example], 'append');
    await writeJsonl(file, [example], 'append');
    expect(parseExampleText(await readFile(file, 'utf8'), file)).toHaveLength(2);
    await writeJsonl(file, [example], 'replace');
    expect(parseExampleText(await readFile(file, 'utf8'), file)).toEqual([example]);
  });
});

describe('writeMarkdownDir', () => {
  it('writes one sanitized <name>.md per example that reads back to the same spec', async () => {
    const dir = path.join(await writeFixtures({}), 'md');
    const written = await writeMarkdownDir(dir, [example]);
    expect(await readdir(dir)).toEqual(['fix--a-b--c-.md']);
    const [again] = parseExampleText(await readFile(written[0] as string, 'utf8'), written[0] as string);
    expect(again).toEqual(example);
  });
});

describe('sanitizedFileName', () => {
  it('replaces the characters Zed replaces with -', () => {
    expect(sanitizedFileName('a b:c~d^e?f*g[h\\i@j{k/l<m>n|o"p')).toBe('a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p');
  });
});
