import { readdir, readFile } from 'node:fs/promises';
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

describe('JSON and JSONL with CRLF and mixed texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const corpusInCrlf = async () => {
    const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.md'));
    expect(files).toHaveLength(19);
    return Promise.all(files.map(async (file) => parseExampleText(crlf(await readFile(path.join(CORPUS_DIR, file), 'utf8')), file)[0]!));
  };

  it('round-trips JSONL of CRLF examples byte for byte, and reads back every CR', async () => {
    const examples = await corpusInCrlf();
    const jsonl = formatJsonl(examples);
    expect(jsonl).toContain('\\r\\n');
    const again = parseExampleText(jsonl, 'set.jsonl');
    expect(formatJsonl(again)).toBe(jsonl);
    expect(again.map((example) => example.cursor_position)).toEqual(examples.map((example) => example.cursor_position));
    expect(again.map((example) => example.expected_patches)).toEqual(examples.map((example) => example.expected_patches));
  });

  it('round-trips a Zed JSONL line with mixed texts (CRLF, LF, lone CR) byte for byte', () => {
    // Zed's serde order, so the written line can equal it.
    const line = JSON.stringify({
      name: 'mixed',
      repository_url: 'https://github.com/o/r',
      revision: 'abc',
      uncommitted_diff: '--- a/a.rs\r\n+++ b/a.rs\r\n-q\r\n+r\r\n',
      cursor_path: 'a.rs',
      cursor_position: 'a\r\nb\rc\n// ^[CURSOR_POSITION]\r\n',
      edit_history: '--- a/a.rs\n+++ b/a.rs\r\n-x\r\n+y\n',
      expected_patches: ['-a\r\n+b\r\n', '-a\n+c\r'],
    });
    const [example] = parseExampleText(`${line}\n`, 'z.jsonl');
    expect(example?.cursor_position).toBe('a\r\nb\rc\n// ^[CURSOR_POSITION]\r\n');
    expect(formatJsonl([example!])).toBe(`${line}\n`);
  });

  it('reads a JSONL file with CRLF line ends and a pretty .json file with CRLF lines: the CRs outside strings are not text', async () => {
    const example = { ...LINE, cursor_position: 'x\r\n// ^[CURSOR_POSITION]\r\n' };
    const dir = await writeFixtures({
      'set.jsonl': `${JSON.stringify(example)}\r\n${JSON.stringify({ ...example, name: 'second' })}\r\n`,
      'one.json': crlf(JSON.stringify(example, null, 2)),
    });
    const read = await readExamples(['set.jsonl', 'one.json'], { cwd: dir });
    expect(read.map((item) => [item.name, item.cursor_position])).toEqual([
      ['set-0', 'x\r\n// ^[CURSOR_POSITION]\r\n'],
      ['second', 'x\r\n// ^[CURSOR_POSITION]\r\n'],
      ['one', 'x\r\n// ^[CURSOR_POSITION]\r\n'],
    ]);
  });
});
