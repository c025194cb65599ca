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
