import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { pristineGitDir } from '../../src/sandbox/pristineGitDir.js';
import { createRepo, gitIn, tempDir } from './sandboxFixture.js';

describe('pristineGitDir', () => {
  it('is made once per commit and state of the refs: a moved branch gets a new one, the old one goes', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const poolDir = join(await tempDir(), 'pool');
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    const first = await pristineGitDir(poolDir, repo, head);
    expect(await pristineGitDir(poolDir, repo, head)).toBe(first);
    expect((await readFile(join(first, 'HEAD'), 'utf8')).trim()).toBe(head);
    expect(existsSync(join(first, 'index'))).toBe(false);

    await gitIn(repo, ['branch', 'feature']);
    const second = await pristineGitDir(poolDir, repo, head);
    expect(second).not.toBe(first);
    expect(existsSync(first)).toBe(false);
    const refs = String((await execa('git', ['--git-dir', second, 'for-each-ref', '--format=%(refname)'])).stdout);
    expect(refs).toContain('refs/remotes/origin/feature');
    expect(String((await execa('git', ['--git-dir', second, 'config', '--get', 'remote.origin.pushurl'])).stdout)).toBe('evalflow-sandbox-push-disabled');
  });
});
