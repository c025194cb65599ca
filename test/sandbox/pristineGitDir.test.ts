import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ensureHistoryBase } from '../../src/sandbox/historyBase.js';
import { pristineGitDir } from '../../src/sandbox/pristineGitDir.js';
import { createRepo, gitIn, tempDir } from './sandboxFixture.js';

describe('pristineGitDir', () => {
  it('is made once per commit, from the commit\'s history base: its refs are the base\'s, its objects borrowed from the base', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const root = await tempDir();
    const poolDir = join(root, 'pool');
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    await gitIn(repo, ['branch', 'feature']);
    const base = await ensureHistoryBase(root, repo, head);
    const first = await pristineGitDir(poolDir, base, head);
    expect(await pristineGitDir(poolDir, base, head)).toBe(first);
    expect((await readFile(join(first, 'HEAD'), 'utf8')).trim()).toBe(head);
    expect(existsSync(join(first, 'index'))).toBe(false);
    expect(await readFile(join(first, 'objects', 'info', 'alternates'), 'utf8')).toBe(`${join(base, 'objects')}\n`);
    const refs = String((await execa('git', ['--git-dir', first, 'for-each-ref', '--format=%(refname)'])).stdout).split('\n');
    expect(refs.sort()).toEqual(['refs/heads/main', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main']);
    expect(String((await execa('git', ['--git-dir', first, 'config', '--get', 'remote.origin.pushurl'])).stdout)).toBe('evalflow-sandbox-push-disabled');
  });
});
