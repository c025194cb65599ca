import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exampleToJsonLine } from '../../../src/editprediction/format/exampleToJson.js';
import { parseExampleText, readExamples } from '../../../src/editprediction/format/readExamples.js';
import { formatJsonl } from '../../../src/editprediction/format/writeExamples.js';
import { FormatError } from '../../../src/errors.js';
import { CORPUS_DIR, writeFixtures } from '../fixtureDir.js';

const LINE = { repository_url: 'https://github.com/o/r', revision: 'abc', cursor_path: 'a.rs', cursor_position: 'x\n// ^[CURSOR_POSITION]', edit_history: '', expected_patches: ['-x\n+y\n'] };

describe('readExamples', () => {
  it('reads .md, .json and .jsonl by extension, naming unnamed examples after the file', async () => {
    const markdown = await readFile(path.join(CORPUS_DIR, 'zed--add-eprintln.md'), 'utf8');
    const dir = await writeFixtures({
      'evals/zed--add-eprintln.md': markdown,
      'one.json': JSON.stringify(LINE),
      'many.jsonl': `${JSON.stringify(LINE)}\n${JSON.stringify({ ...LINE, name: 'named' })}\n${JSON.stringify(LINE)}\n`,
    });
    const examples = await readExamples(['evals/zed--add-eprintln.md', 'one.json', 'many.jsonl'], { cwd: dir });
    expect(examples.map((example) => example.name)).toEqual(['zed--add-eprintln', 'one', 'many-0', 'named', 'many-2']);
    expect(examples[0]).toMatchObject({ repository_url: 'git@github.com:zed-industries/zed', predictions: [], score: [] });
  });

  it('reads - from stdin as JSONL', async () => {
    const examples = await readExamples(['-'], { stdin: Readable.from([`${JSON.stringify(LINE)}\n`]) });
    expect(examples.map((example) => example.name)).toEqual(['--0']);
  });

  it('names the file and line of a JSONL line that is not JSON', async () => {
    const dir = await writeFixtures({ 'bad.jsonl': `${JSON.stringify(LINE)}\n{not json\n` });
    await expect(readExamples(['bad.jsonl'], { cwd: dir })).rejects.toThrow(/^bad\.jsonl:2: not valid JSON/);
  });

  it('names the file, line and field of a line with a wrong field', () => {
    const { cursor_path: _omit, ...withoutCursor } = LINE;
    const read = () => parseExampleText(`${JSON.stringify(LINE)}\n${JSON.stringify(withoutCursor)}\n`, 'set.jsonl');
    expect(read).toThrow(FormatError);
    expect(read).toThrow(/^set\.jsonl:2: cursor_path: /);
  });

  it('rejects a blank JSONL line, an unknown extension and a missing file', async () => {
    expect(() => parseExampleText(`${JSON.stringify(LINE)}\n\n${JSON.stringify(LINE)}\n`, 'gap.jsonl')).toThrow('gap.jsonl:2: expected a JSON object, found an empty line');
    expect(() => parseExampleText('x', 'notes.txt')).toThrow('notes.txt: unsupported example file extension ".txt"');
    await expect(readExamples(['missing.md'], { cwd: await writeFixtures({}) })).rejects.toThrow(/^missing\.md: cannot read example file \(ENOENT\)/);
  });
});

describe('JSONL round trip', () => {
  it('keeps fields evalflow does not know, and null options, through read → write → read', () => {
    const zedLine = {
      ...LINE,
      name: 'from-zed',
      captured_prompt_input: { excerpt: 'kept' },
      prompt_inputs: { cursor_path: 'a.rs', cursor_excerpt: 'x', cursor_offset_in_excerpt: 1, excerpt_start_row: 4, events: [], related_files: null, excerpt_ranges: { editable_150: { start: 0, end: 1 } }, future_field: [1, 2] },
      predictions: [{ actual_patch: null, actual_output: null, provider: 'zeta2:v0', cumulative_logprob: -1.5, brand_new: true }],
      qa: [null, { confidence: 4 }],
    };
    const [first] = parseExampleText(`${JSON.stringify(zedLine)}\n`, 'z.jsonl');
    expect(first?.predictions[0]?.actual_output).toBe('');
    const written = formatJsonl([first!]);
    const [second] = parseExampleText(written, 'z.jsonl');
    expect(second).toEqual(first);
    const json = JSON.parse(written) as Record<string, unknown>;
    expect(json.captured_prompt_input).toEqual({ excerpt: 'kept' });
    expect((json.prompt_inputs as Record<string, unknown>).future_field).toEqual([1, 2]);
    expect((json.predictions as Array<Record<string, unknown>>)[0]).toEqual({ actual_output: '', provider: 'zeta2:v0', cumulative_logprob: -1.5, brand_new: true });
  });

  it('writes spec fields in serde order with Zed’s omissions', () => {
    const [example] = parseExampleText(JSON.stringify({ ...LINE, tags: [], human_feedback: [] }), 'x.json');
    expect(Object.keys(JSON.parse(exampleToJsonLine(example!)) as object)).toEqual([
      'name',
      'repository_url',
      'revision',
      'uncommitted_diff',
      'cursor_path',
      'cursor_position',
      'edit_history',
      'expected_patches',
    ]);
  });

  it('round-trips every corpus example through JSONL', async () => {
    const markdown = await readFile(path.join(CORPUS_DIR, 'flask--rename-accepted-prediction.md'), 'utf8');
    const [example] = parseExampleText(markdown, 'flask--rename-accepted-prediction.md');
    const [again] = parseExampleText(formatJsonl([example!]), 'x.jsonl');
    expect(again).toEqual(example);
  });
});
