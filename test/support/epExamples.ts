import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';

/**
 * Edit-prediction fixtures: local git repositories built by the test, and examples in Zed's
 * Markdown format pointing at them by path. Example `i` lives in `src/m<i>.py`; its edit
 * history adds `print(f<i>(2))`, and the expected patch adds `print(f<i>(3))` after it, with the
 * cursor at the end of that line.
 */

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'evalflow test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'evalflow test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Write path→content fixtures into a fresh temporary directory and return it. */
export async function writeTree(files: Record<string, string>, root?: string): Promise<string> {
  const dir = root ?? (await mkdtemp(join(tmpdir(), 'evalflow-ep-')));
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, relative)), { recursive: true });
    await writeFile(join(dir, relative), content, 'utf8');
  }
  return dir;
}

/** The committed text of example i's file. */
export function moduleSource(i: number): string {
  return `def f${i}(x):\n    return x + ${i}\n\n\ndef main():\n    print(f${i}(1))\n`;
}

/** A git repository at `<root>/<relative>` with one commit holding the modules of `examples`. */
export async function createEpRepo(root: string, relative: string, examples: number[]): Promise<string> {
  const repo = join(root, relative);
  await writeTree(Object.fromEntries(examples.map((i) => [`src/m${i}.py`, moduleSource(i)])), repo);
  await execa('git', ['init', '--quiet', '--initial-branch=main'], { cwd: repo, env: GIT_ENV });
  await execa('git', ['add', '--all'], { cwd: repo, env: GIT_ENV });
  await execa('git', ['commit', '--quiet', '-m', 'modules'], { cwd: repo, env: GIT_ENV });
  return String((await execa('git', ['rev-parse', 'HEAD'], { cwd: repo })).stdout).trim();
}

/** Example i in Zed's Markdown format; `cursorLine` replaces the cursor excerpt's last line (to break it). */
export function epExampleMarkdown(repositoryUrl: string, revision: string, i: number, options: { cursorLine?: string } = {}): string {
  const typed = `    print(f${i}(2))`;
  const cursorLine = options.cursorLine ?? typed;
  return [
    '+++',
    `repository_url = ${JSON.stringify(repositoryUrl)}`,
    `revision = ${JSON.stringify(revision)}`,
    '+++',
    '',
    '## Edit History',
    '',
    '```diff',
    `--- a/src/m${i}.py`,
    `+++ b/src/m${i}.py`,
    '@@ -5,2 +5,3 @@',
    ' def main():',
    `     print(f${i}(1))`,
    `+${typed}`,
    '```',
    '',
    '## Cursor Position',
    '',
    `\`\`\`src/m${i}.py`,
    'def main():',
    `    print(f${i}(1))`,
    cursorLine,
    `${'#'.padEnd(typed.length)}^[CURSOR_POSITION]`,
    '```',
    '',
    '## Expected Patch',
    '',
    '```diff',
    `--- a/src/m${i}.py`,
    `+++ b/src/m${i}.py`,
    '@@ -6,2 +6,3 @@',
    `     print(f${i}(1))`,
    `     print(f${i}(2))`,
    `+    print(f${i}(3))`,
    // The cursor after the edit: at the end of the added line (column 1 is the diff's `+`).
    `${'#'.padEnd(typed.length + 1)}^[CURSOR_POSITION]`,
    '```',
    '',
  ].join('\n');
}

/** Which example a model request is about (its prompt shows `def f<i>(`), or undefined. */
export function exampleOf(request: MockRequest): number | undefined {
  const prompt = request.messages.map((message) => message.content).join('\n');
  const match = /def f(\d+)\(/.exec(prompt);
  return match ? Number(match[1]) : undefined;
}

/** The reply the openai provider expects: the editable region of the prompt, rewritten. */
export function rewriteReply(request: MockRequest, kind: 'right' | 'wrong'): MockReply {
  const i = exampleOf(request);
  const prompt = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const start = '<|editable_region_start|>\n';
  const end = '\n<|editable_region_end|>';
  const from = prompt.lastIndexOf(start);
  const to = prompt.indexOf(end, from);
  if (i === undefined || from === -1 || to === -1) return { status: 400, errorMessage: 'the fixture script did not recognise this prompt' };
  const region = prompt.slice(from + start.length, to).replace('<|user_cursor|>', '');
  const typed = `    print(f${i}(2))\n`;
  const next = kind === 'right' ? `    print(f${i}(3))<|user_cursor|>\n` : `    print("three")<|user_cursor|>\n`;
  return { text: `${start}${region.replace(typed, typed + next)}${end}` };
}
