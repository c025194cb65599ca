import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExampleMarkdown } from '../../../src/editprediction/format/parseExampleMarkdown.js';
import { FormatError } from '../../../src/errors.js';
import { CORPUS_DIR } from '../fixtureDir.js';

const FRONT = '+++\nrepository_url = "https://github.com/example/repo"\nrevision = "abc123"\n+++\n\n';
const CURSOR = '## Cursor Position\n\n```src/main.rs\nfn main() {}\n//  ^[CURSOR_POSITION]\n```\n';

describe('parseExampleMarkdown', () => {
  it('reads every corpus file with its front matter and at least one expected patch', async () => {
    const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.md'));
    expect(files).toHaveLength(19);
    for (const file of files) {
      const spec = parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
      expect(spec.repository_url, file).toMatch(/^(https:\/\/|git@)/);
      expect(spec.revision, file).toMatch(/^[0-9a-f]{40}$/);
      expect(spec.name, file).toBe('');
      expect(spec.cursor_path, file).not.toBe('');
      expect(spec.expected_patches.length, file).toBeGreaterThan(0);
    }
  });

  it('folds the accepted-prediction marker into the edit history (split form)', async () => {
    const file = 'hello-world--rename-accepted-group-by.md';
    const spec = parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
    expect(spec.edit_history.match(/\/\/ User accepted prediction:/g)).toHaveLength(1);
    expect(spec.edit_history).toContain('+function groupBy\n+\n// User accepted prediction:\n--- a/README\n');
    expect(spec.edit_history.match(/^--- a\/README$/gm)).toHaveLength(3);
  });

  it('keeps trailing whitespace and garbage lines of patches verbatim', async () => {
    const file = 'flask--add-test-function.md';
    const spec = parseExampleMarkdown(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
    expect(spec.expected_patches).toHaveLength(10);
    expect(spec.expected_patches[0]).toContain('\n+    \n\n\ndef test_static_url_path():\n');
  });

  it('ignores description paragraphs and Reasoning, and matches headings case-insensitively', () => {
    const spec = parseExampleMarkdown(`${FRONT}# my-name\n\nSome description.\n\n## Reasoning\n\n\`\`\`\nnot kept\n\`\`\`\n\n## EDIT HISTORY\n\n\`\`\`diff\n-a\n+b\n\`\`\`\n\n${CURSOR}\n## expected patch\n\n\`\`\`diff\n-x\n\`\`\`\n\n\`\`\`diff\n-y\n\`\`\`\n\n## Rejected Patch\n\n\`\`\`diff\n-z\n\`\`\`\n`, 'x.md');
    expect(spec).toMatchObject({
      name: 'my-name',
      repository_url: 'https://github.com/example/repo',
      revision: 'abc123',
      edit_history: '-a\n+b\n',
      cursor_path: 'src/main.rs',
      cursor_position: 'fn main() {}\n//  ^[CURSOR_POSITION]\n',
      expected_patches: ['-x\n', '-y\n'],
      rejected_patch: '-z\n',
    });
    expect(spec.reasoning).toBeUndefined();
  });

  it('reads tags, the rollback flag, uncommitted diff and recent files', () => {
    const markdown =
      '+++\nrepository_url = "u"\nrevision = "r"\ntags = ["a", "b"]\nuncommitted_diff_requires_edit_history_rollback = true\n+++\n\n' +
      '## Uncommitted Diff\n\n```diff\n-old\n```\n\n## Recently Opened Files\n\n```\nsrc/a.rs\t12\n  src/b.rs  \nsrc/c.rs\tNaN\n```\n\n' +
      CURSOR;
    expect(parseExampleMarkdown(markdown, 'x.md')).toMatchObject({
      tags: ['a', 'b'],
      uncommitted_diff_contains_edit_history: true,
      uncommitted_diff: '-old\n',
      recently_opened_files: [{ path: 'src/a.rs', cursor_position: 12 }, { path: 'src/b.rs' }, { path: 'src/c.rs' }],
    });
  });

  it('silently ignores front matter that is not valid TOML or lacks a required key', () => {
    const broken = parseExampleMarkdown(`+++\nrepository_url = "unterminated\n+++\n\n${CURSOR}`, 'x.md');
    expect(broken).toMatchObject({ repository_url: '', revision: '', cursor_path: 'src/main.rs' });
    const missing = parseExampleMarkdown(`+++\nrepository_url = "u"\n+++\n\n${CURSOR}`, 'x.md');
    expect(missing).toMatchObject({ repository_url: '', revision: '' });
  });

  it('treats a file without front matter as all markdown', () => {
    expect(parseExampleMarkdown(CURSOR, 'x.md')).toMatchObject({ repository_url: '', cursor_path: 'src/main.rs' });
  });

  it('fails with "Missing cursor position codeblock" naming the file', () => {
    expect(() => parseExampleMarkdown(`${FRONT}## Edit History\n\n\`\`\`diff\n-a\n\`\`\`\n`, 'evals/no-cursor.md')).toThrow(
      /^evals\/no-cursor\.md: Missing cursor position codeblock/,
    );
    expect(() => parseExampleMarkdown(`${FRONT}## Cursor Position\n\n\`\`\`\nx\n\`\`\`\n`, 'no-path.md')).toThrow(FormatError);
  });

  it('rejects H5/H6 headings with the file and line', () => {
    expect(() => parseExampleMarkdown(`${FRONT}${CURSOR}\n##### Deep\n`, 'deep.md')).toThrow(/^deep\.md:13: Unexpected heading level: h5/);
  });

  it('accepts H3 and H4 headings without changing the section', () => {
    const spec = parseExampleMarkdown(`${FRONT}## Expected Patch\n\n### Option A\n\n\`\`\`diff\n-a\n\`\`\`\n\n${CURSOR}`, 'x.md');
    expect(spec.expected_patches).toEqual(['-a\n']);
  });

  it('rejects an indented code block with the file and line', () => {
    expect(() => parseExampleMarkdown(`${FRONT}## Edit History\n\n    --- a/x\n\n${CURSOR}`, 'indent.md')).toThrow(/^indent\.md:8: Unexpected indented codeblock/);
  });
});

describe('parseExampleMarkdown on CRLF and mixed files', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const BLOCK_FIELDS = ['uncommitted_diff', 'cursor_position', 'edit_history', 'rejected_patch'] as const;

  it('reads every corpus file saved with CRLF as its LF twin, every block text with its CRs', async () => {
    for (const file of (await readdir(CORPUS_DIR)).filter((name) => name.endsWith('.md'))) {
      const markdown = await readFile(path.join(CORPUS_DIR, file), 'utf8');
      const lf = parseExampleMarkdown(markdown, file);
      const twin = parseExampleMarkdown(crlf(markdown), file);
      expect(twin.repository_url, file).toBe(lf.repository_url);
      expect(twin.revision, file).toBe(lf.revision);
      expect(twin.cursor_path, file).toBe(lf.cursor_path);
      for (const field of BLOCK_FIELDS) expect(twin[field], `${file} ${field}`).toBe(lf[field] === undefined ? undefined : crlf(lf[field]));
      expect(twin.expected_patches, file).toEqual(lf.expected_patches.map(crlf));
    }
  });

  it('keeps CRLF, LF and lone CR lines of a block in an LF file exactly', () => {
    const cursor = 'fn main() {\r\n    let x = 1;\n    let y = 2;\r// a lone CR\r\n//  ^[CURSOR_POSITION]\r\n';
    const history = '--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1 +1 @@\r\n-a\r\n+b\n';
    const spec = parseExampleMarkdown(`${FRONT}## Edit History\n\n\`\`\`diff\n${history}\`\`\`\n\n## Cursor Position\n\n\`\`\`src/main.rs\n${cursor}\`\`\`\n`, 'x.md');
    expect(spec.cursor_position).toBe(cursor);
    expect(spec.edit_history).toBe(history);
    expect(spec.cursor_path).toBe('src/main.rs');
  });

  it('reads CRLF front matter, which Zed would ignore, and still ignores broken front matter', () => {
    expect(parseExampleMarkdown(crlf(`${FRONT}${CURSOR}`), 'x.md')).toMatchObject({ repository_url: 'https://github.com/example/repo', revision: 'abc123' });
    expect(parseExampleMarkdown(crlf(`+++\nrepository_url = "u"\n+++\n\n${CURSOR}`), 'x.md').repository_url).toBe('');
  });

  it('ends the accepted-prediction marker line in CRLF before a CRLF block', () => {
    const history = crlf('```diff\n-a\n+b\n```\n\n// User accepted prediction:\n```diff\n--- a/x\n+++ b/x\n-b\n+c\n```\n');
    const spec = parseExampleMarkdown(crlf(`${FRONT}## Edit History\n\n`) + history + crlf(`\n${CURSOR}`), 'x.md');
    expect(spec.edit_history).toBe('-a\r\n+b\r\n// User accepted prediction:\r\n--- a/x\r\n+++ b/x\r\n-b\r\n+c\r\n');
  });
});
