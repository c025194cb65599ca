import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import { exampleToMarkdown } from '../../../src/editprediction/format/exampleToMarkdown.js';
import { ExampleSpecSchema } from '../../../src/editprediction/format/schema.js';
import { CORPUS_DIR } from '../fixtureDir.js';

describe('exampleToMarkdown', () => {
  it('writes the layout of Zed’s to_markdown', () => {
    const spec = ExampleSpecSchema.parse({
      name: 'demo',
      repository_url: 'https://github.com/o/r',
      revision: 'abc',
      tags: ['t1'],
      reasoning: 'because',
      uncommitted_diff: '-u\n+v',
      cursor_path: 'src/x.rs',
      cursor_position: 'fn x() {}\n// ^[CURSOR_POSITION]',
      edit_history: '',
      expected_patches: ['-a\n+b\n'],
      rejected_patch: '-r\n',
    });
    expect(exampleToMarkdown(spec)).toBe(
      [
        '+++',
        'repository_url = "https://github.com/o/r"',
        'revision = "abc"',
        'tags = [',
        '    "t1",',
        ']',
        '+++',
        '',
        '# demo',
        '',
        '## Reasoning',
        '',
        'because',
        '',
        '## Uncommitted Diff',
        '',
        '```diff',
        '-u',
        '+v',
        '```',
        '',
        '## Edit History',
        '',
        '(No edit history)',
        '',
        '## Cursor Position',
        '',
        '```src/x.rs',
        'fn x() {}',
        '// ^[CURSOR_POSITION]',
        '```',
        '',
        '## Expected Patch',
        '',
        '```diff',
        '-a',
        '+b',
        '```',
        '',
        '## Rejected Patch',
        '',
        '```diff',
        '-r',
        '```',
        '',
        '',
      ].join('\n'),
    );
  });

  it('lengthens the fence when content has a ``` line, so the block survives', () => {
    const spec = ExampleSpecSchema.parse({ repository_url: 'u', revision: 'r', cursor_path: 'README.md', cursor_position: '```\n^[CURSOR_POSITION]\n', edit_history: '', expected_patches: [] });
    const [again] = parseExampleText(exampleToMarkdown(spec), 'x.md');
    expect(again?.cursor_position).toBe('```\n^[CURSOR_POSITION]\n');
  });

  it('round-trips every corpus file: md → example → md → example gives the same example', async () => {
    const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.md'));
    expect(files).toHaveLength(19);
    for (const file of files) {
      const [first] = parseExampleText(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
      const markdown = exampleToMarkdown(first!);
      const [second] = parseExampleText(markdown, file);
      expect(second, file).toEqual(first);
      expect(exampleToMarkdown(second!), file).toBe(markdown);
    }
  });
});

describe('exampleToMarkdown and CRLF', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const corpus = async () => {
    const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.md'));
    expect(files).toHaveLength(19);
    return Promise.all(files.map(async (file) => ({ file, example: parseExampleText(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file)[0]! })));
  };

  it('writes the file’s own lines in CRLF when every block line ends in CRLF', () => {
    const spec = ExampleSpecSchema.parse({ name: 'n', repository_url: 'u', revision: 'r', cursor_path: 'a.py', cursor_position: 'x\r\n# ^[CURSOR_POSITION]\r\n', edit_history: '', expected_patches: ['-x\r\n+y\r\n'] });
    expect(exampleToMarkdown(spec)).toBe(
      '+++\r\nrepository_url = "u"\r\nrevision = "r"\r\n+++\r\n\r\n# n\r\n\r\n## Edit History\r\n\r\n(No edit history)\r\n\r\n' +
        '## Cursor Position\r\n\r\n```a.py\r\nx\r\n# ^[CURSOR_POSITION]\r\n```\r\n\r\n## Expected Patch\r\n\r\n```diff\r\n-x\r\n+y\r\n```\r\n\r\n',
    );
    expect(exampleToMarkdown({ ...spec, expected_patches: ['-x\n+y\r\n'] })).toMatch(/^\+\+\+\nrepository_url = "u"\n/);
  });

  it('round-trips every corpus example saved with CRLF byte for byte: md → example → md', async () => {
    for (const { file, example } of await corpus()) {
      const markdown = crlf(exampleToMarkdown(example));
      const [again] = parseExampleText(markdown, file);
      expect(exampleToMarkdown(again!), file).toBe(markdown);
      expect(again!.cursor_position, file).toBe(crlf(example.cursor_position));
    }
  });

  it('round-trips every corpus example with mixed block lines byte for byte: CRLF, LF and lone CR', async () => {
    // Every other line of each block ends in CRLF, and one line gets a lone CR: the file stays LF.
    const mix = (text: string) => text.replace(/\n/g, (_, offset: number) => (text.slice(0, offset).split('\n').length % 2 === 0 ? '\r\n' : '\n')).replace(/ /, ' \r');
    for (const { file, example } of await corpus()) {
      const mixed = { ...example, cursor_position: mix(example.cursor_position), edit_history: mix(example.edit_history), expected_patches: example.expected_patches.map(mix) };
      const markdown = exampleToMarkdown(mixed);
      expect(markdown.startsWith('+++\n'), file).toBe(true);
      const [again] = parseExampleText(markdown, file);
      expect(again, file).toEqual(mixed);
      expect(exampleToMarkdown(again!), file).toBe(markdown);
    }
  });

  it('writes a file with LF lines and CRLF blocks back with CRLF throughout (the one line-ending change)', () => {
    const markdown = `+++\nrepository_url = "u"\nrevision = "r"\n+++\n\n# n\n\n## Edit History\n\n(No edit history)\n\n## Cursor Position\n\n\`\`\`a.py\nx\r\n# ^[CURSOR_POSITION]\r\n\`\`\`\n\n## Expected Patch\n\n`;
    const [example] = parseExampleText(markdown, 'n.md');
    expect(exampleToMarkdown(example!)).toBe(markdown.replace(/\r?\n/g, '\r\n'));
  });
});
