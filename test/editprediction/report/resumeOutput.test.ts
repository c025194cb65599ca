import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exampleKey, formatJsonl, parseExampleText, resumeOutput } from '../../../src/editprediction/index.js';
import { epExampleMarkdown, writeTree } from '../../support/epExamples.js';

const examples = [1, 2, 3].flatMap((i) => parseExampleText(epExampleMarkdown('repos/alpha', 'abc123', i), `ex${i}.md`));
const dirs: string[] = [];

describe('resumeOutput', () => {
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the lines of wanted examples, rewrites the file with them and returns their keys', async () => {
    const dir = await writeTree({ 'out.jsonl': formatJsonl(examples) });
    dirs.push(dir);
    const file = join(dir, 'out.jsonl');
    const wanted = new Set([exampleKey(examples[0]!), exampleKey(examples[2]!), 'ep-not-in-the-file']);
    expect(await resumeOutput(file, wanted)).toEqual(new Set([exampleKey(examples[0]!), exampleKey(examples[2]!)]));
    expect(await readFile(file, 'utf8')).toBe(formatJsonl([examples[0]!, examples[2]!]));
  });

  it('keeps the kept lines byte for byte: CRLF examples, and a file whose lines end in CRLF', async () => {
    const crlfExamples = examples.map((example) => ({ ...example, cursor_position: example.cursor_position.replace(/\n/g, '\r\n') }));
    const lines = formatJsonl(crlfExamples).replace(/\n/g, '\r\n');
    const dir = await writeTree({ 'out.jsonl': lines });
    dirs.push(dir);
    const file = join(dir, 'out.jsonl');
    expect(await resumeOutput(file, new Set([exampleKey(crlfExamples[1]!)]))).toEqual(new Set([exampleKey(crlfExamples[1]!)]));
    expect(await readFile(file, 'utf8')).toBe(`${formatJsonl([crlfExamples[1]!]).slice(0, -1)}\r\n`);
  });

  it('resumes nothing from a missing file', async () => {
    expect(await resumeOutput('/nonexistent/evalflow/out.jsonl', new Set(['x']))).toEqual(new Set());
  });

  it('refuses a line that is not an example, naming the file and line', async () => {
    const dir = await writeTree({ 'out.jsonl': `${formatJsonl([examples[0]!])}not json\n` });
    dirs.push(dir);
    await expect(resumeOutput(join(dir, 'out.jsonl'), new Set())).rejects.toThrow(
      `${join(dir, 'out.jsonl')}:2: expected one example as JSON per line (the -o output of evalflow ep), found text that is not JSON`,
    );
    expect(await readFile(join(dir, 'out.jsonl'), 'utf8')).toContain('not json');
  });
});
