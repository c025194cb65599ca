import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayExample } from '../../../src/editprediction/replay/replayExample.js';
import { ConfigError, FormatError, SandboxError } from '../../../src/errors.js';
import { createGitRepo, git } from './gitFixture.js';
import { writeFixtures } from '../fixtureDir.js';
import { APP_V1, lineEndingExample, localExample } from './localExample.js';
import type { LineEndingVariant } from './localExample.js';

const REPLAYED = 'import os\nimport sys\n\n\ndef greet(name):\n    return "hello, " + name\n\n\ndef main():\n    print(greet("world"))\n    print(greet("you"))\n';

describe('replayExample on a local repository', () => {
  it('checks out the revision, applies the uncommitted diff and the edit history, and finds the cursor', async () => {
    const { example, shas } = await localExample();
    const cacheDir = await writeFixtures({});
    const result = await replayExample(example, { cacheDir });
    expect(result.commit).toBe(shas[0]);
    expect(result.worktree).toBe(path.join(cacheDir, 'worktrees', 'src-repos', 'demo'));
    expect(result.cursorPath).toBe('src/app.py');
    expect(result.cursorFileText).toBe(REPLAYED);
    // The caret sits at byte column 23: the end of '    print(greet("you"))'.
    const cursorIndex = REPLAYED.indexOf('    print(greet("you"))') + 23;
    expect(result.cursorOffset).toBe(Buffer.byteLength(REPLAYED.slice(0, cursorIndex)));
    expect(result.excerptOffset).toBe(REPLAYED.indexOf('def main():'));
    // The uncommitted diff is in the worktree; the edit history only in the replayed buffer.
    expect(await readFile(path.join(result.worktree, 'src/app.py'), 'utf8')).toBe(APP_V1.replace('import os\n', 'import os\nimport sys\n'));
    expect(result.events.map((event) => [event.path, event.old_path, event.predicted])).toEqual([
      ['demo/src/app.py', 'demo/src/app.py', false],
      ['demo/src/app.py', 'demo/src/app.py', true],
    ]);
    expect(result.events[0]?.diff).toContain('-    return "hello " + name\n+    return "hello, " + name\n');
    expect(result.events[1]?.diff).toMatch(/^@@ -8,3 \+8,4 @@\n/);
  });

  it('accepts a file:// URL and reuses the cached worktree for another revision', async () => {
    const { example, shas } = await localExample({ fileUrl: true });
    const cacheDir = await writeFixtures({});
    await replayExample(example, { cacheDir });
    const second = await replayExample({ ...example, revision: shas[1] as string, uncommitted_diff: '' }, { cacheDir });
    expect(second.commit).toBe(shas[1]);
    expect(await readFile(path.join(second.worktree, 'src/app.py'), 'utf8')).toContain('# added later');
    expect(await git(second.worktree, ['status', '--porcelain'])).toBe('');
  });

  it('names the example, file and history line when a hunk context is missing or repeated', async () => {
    const cacheDir = await writeFixtures({});
    const missing = await localExample({ parts: { history: '```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-import nothing\n+import x\n```' } });
    const failure = replayExample(missing.example, { cacheDir });
    await expect(failure).rejects.toThrow(FormatError);
    await expect(failure).rejects.toThrow(/^local-demo: edit_history line 3 \(src\/app\.py\): Failed to match context/);

    // An empty context line is "\n", which the 10-line file holds 10 times.
    const repeated = await localExample({ parts: { history: '```diff\n--- a/src/app.py\n+++ b/src/app.py\n \n+# here?\n```' } });
    await expect(replayExample(repeated.example, { cacheDir })).rejects.toThrow(/^local-demo: edit_history line 3 \(src\/app\.py\): Context is not unique enough \(found 10 times\)/);
  });

  it('fails when the cursor excerpt is absent or ambiguous', async () => {
    const cacheDir = await writeFixtures({});
    const absent = await localExample({ parts: { cursor: '```src/app.py\ndef nowhere():<|user_cursor|>\n```' } });
    await expect(replayExample(absent.example, { cacheDir })).rejects.toThrow(/^local-demo: Cursor excerpt did not exist in buffer src\/app\.py/);
    const ambiguous = await localExample({ parts: { cursor: '```src/app.py\n    print(greet(\n#  ^[CURSOR_POSITION]\n```' } });
    await expect(replayExample(ambiguous.example, { cacheDir })).rejects.toThrow('local-demo: More than one cursor position match found: the excerpt occurs 2 times in src/app.py');
  });

  it('fails clearly for a missing cursor file, a bad revision and an uncommitted diff that does not apply', async () => {
    const cacheDir = await writeFixtures({});
    const { example } = await localExample();
    await expect(replayExample({ ...example, cursor_path: 'src/none.py' }, { cacheDir })).rejects.toThrow('local-demo: cursor_path "src/none.py" does not exist in demo');
    await expect(replayExample({ ...example, revision: 'no-such-rev' }, { cacheDir })).rejects.toThrow(/revision "no-such-rev" is not in /);
    const bad = replayExample({ ...example, uncommitted_diff: '--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-absent line\n+x\n' }, { cacheDir });
    await expect(bad).rejects.toThrow(SandboxError);
    await expect(bad).rejects.toThrow(/^local-demo: uncommitted_diff does not apply at /);
  });

  it('never fetches a remote repository that is not in the cache', async () => {
    const { example } = await localExample();
    const cacheDir = await writeFixtures({});
    const remote = replayExample({ ...example, repository_url: 'https://github.com/pallets/flask' }, { cacheDir });
    await expect(remote).rejects.toThrow(ConfigError);
    await expect(remote).rejects.toThrow(
      `https://github.com/pallets/flask: no local clone at ${path.join(cacheDir, 'repos', 'pallets', 'flask')}, and evalflow does not fetch from the network by default.`,
    );
  });

  it('uses a pre-cloned remote repository from the cache without touching the network', async () => {
    const { example, repo, shas } = await localExample();
    const cacheDir = await writeFixtures({});
    await git(path.dirname(repo), ['clone', '--quiet', repo, path.join(cacheDir, 'repos', 'octo', 'demo')]);
    const result = await replayExample({ ...example, repository_url: 'git@github.com:octo/demo.git' }, { cacheDir });
    expect(result.commit).toBe(shas[0]);
    expect(result.cursorFileText).toBe(REPLAYED);
  });
});

describe('replayExample with CRLF and mixed line endings', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  const replay = async (variant: LineEndingVariant) => replayExample((await lineEndingExample(variant)).example, { cacheDir: await writeFixtures({}) });
  const LF_TEXT = 'import os\nimport sys\n\n\ndef greet(name):\n    return "hello, " + name\n\n\ndef main():\r# entry\n    print(greet("world"))\n    print(greet("you"))\n';

  it('replays the CRLF twin byte for byte: worktree, buffer, cursor and events carry every CR', async () => {
    const lf = await replay('lf');
    const twin = await replay('crlf');
    expect(lf.cursorFileText).toBe(LF_TEXT);
    expect(twin.lineEndings).toBe('asIs');
    expect(twin.cursorFileText).toBe(crlf(LF_TEXT));
    // Ten lines (ten CRs) before the cursor's line; the excerpt starts after eight of them.
    expect(twin.cursorOffset).toBe(lf.cursorOffset + 10);
    expect(twin.excerptOffset).toBe(lf.excerptOffset + 8);
    // Only LFs are trimmed from the end of the cursor block: the CRLF excerpt ends in CR.
    expect(twin.excerpt).toBe(`${crlf(lf.excerpt)}\r`);
    expect(await readFile(path.join(twin.worktree, 'src/app.py'), 'utf8')).toBe(crlf(await readFile(path.join(lf.worktree, 'src/app.py'), 'utf8')));
    const withCrs = (diff: string) => diff.split('\n').map((line) => (/^[ +-]/.test(line) ? `${line}\r` : line)).join('\n');
    expect(twin.events.map((event) => event.diff)).toEqual(lf.events.map((event) => withCrs(event.diff)));
  });

  it('replays the mixed twin byte for byte: each line keeps its own ending, the lone CR stays text', async () => {
    const lf = await replay('lf');
    const twin = await replay('mixed');
    expect(twin.lineEndings).toBe('asIs');
    expect(twin.cursorFileText).toBe('import os\r\nimport sys\r\n\n\ndef greet(name):\r\n    return "hello, " + name\r\n\n\ndef main():\r# entry\r\n    print(greet("world"))\n    print(greet("you"))\n');
    // CRLF lines before the cursor: import os, import sys, def greet, return, def main.
    expect(twin.cursorOffset).toBe(lf.cursorOffset + 5);
    expect(twin.events.map((event) => event.diff.replace(/\r\n/g, '\n'))).toEqual(lf.events.map((event) => event.diff));
  });

  it('replays an LF example captured by Zed on the CRLF repository on the files read as LF, as Zed’s buffers hold them', async () => {
    const zed = await replay('lfExampleOnCrlfRepo');
    expect(zed.lineEndings).toBe('normalized');
    expect(zed.cursorFileText).toBe(LF_TEXT.replace('\r', '\n'));
    expect(zed.cursorFileText.slice(Buffer.from(zed.cursorFileText).subarray(0, zed.cursorOffset).toString().length)).toBe('\n');
    expect(zed.events.every((event) => !event.diff.includes('\r'))).toBe(true);
  });

  it('does not normalise an LF file to fit a CRLF example, and says why the excerpt is missing', async () => {
    const { example } = await lineEndingExample('crlf');
    const lfOnly = LF_TEXT.replace('\r', '\n');
    const { repo, shas } = await createGitRepo([{ 'src/app.py': lfOnly }], 'demo');
    const cursor = crlf('def main():\n# entry\n    print(greet("world"))\n    print(greet("you"))\n#                      ^[CURSOR_POSITION]\n');
    const onLf = { ...example, repository_url: repo, revision: shas[0] as string, uncommitted_diff: '', edit_history: '', cursor_position: cursor };
    await expect(replayExample(onLf, { cacheDir: await writeFixtures({}) })).rejects.toThrow(
      'twin: Cursor excerpt did not exist in buffer src/app.py (after the edit history) (the excerpt has CR line endings, the file has none)',
    );
  });

  it('reports the error about the files as they are when normalising does not help either', async () => {
    const { example } = await lineEndingExample('crlf');
    const broken = { ...example, edit_history: '--- a/src/app.py\n+++ b/src/app.py\n-absent\n+x\n' };
    await expect(replayExample(broken, { cacheDir: await writeFixtures({}) })).rejects.toThrow(/^twin: edit_history line 3 \(src\/app\.py\): Failed to match context/);
  });

  it('checks out the repository’s bytes even when the user’s git config asks for core.autocrlf', async () => {
    // localExample's file has no lone CR (git would not convert a file that has one).
    const { example } = await localExample();
    const home = await writeFixtures({ 'gitconfig': '[core]\n\tautocrlf = true\n' });
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = path.join(home, 'gitconfig');
    try {
      const result = await replayExample(example, { cacheDir: await writeFixtures({}) });
      expect(result.lineEndings).toBe('asIs');
      expect(result.cursorFileText).toBe(REPLAYED);
      expect(await readFile(path.join(result.worktree, 'README'), 'utf8')).toBe('demo\n');
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
    }
  });
});
