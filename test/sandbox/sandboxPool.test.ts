import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { notePool, poolDirFor, poolSize, releaseSandbox, takePooled } from '../../src/sandbox/sandboxPool.js';
import { createSandbox } from '../../src/sandbox/sandboxRepo.js';
import { createRepo, gitIn, readTree, tempDir } from './sandboxFixture.js';

/** A project, a host root, and run A's sandbox made through the pool (empty at first). */
async function aPooledRun() {
  const repo = await createRepo({ 'README.md': 'hello\n', 'src/a.js': 'a\n', '.gitignore': 'build/\n' });
  const root = await tempDir('evalflow-pool-');
  const head = await gitIn(repo, ['rev-parse', 'HEAD']);
  const poolDir = poolDirFor(root, repo);
  const run = async (name: string, rev = head) => {
    const hostDir = join(root, name);
    await mkdir(hostDir, { recursive: true });
    const sandbox = join(hostDir, 'work');
    const note = join(hostDir, 'pool.json');
    await notePool(note, { poolDir, sandboxRoot: root, repoDir: repo, rev });
    await createSandbox(repo, sandbox, rev, { sandboxRoot: root, poolDir });
    return { sandbox, note };
  };
  return { repo, root, head, poolDir, run };
}

const raw = async (cwd: string, args: string[]) => String((await execa('git', args, { cwd, reject: false })).stdout);

describe('the sandbox pool', () => {
  it('gives the next run a clone scrubbed of everything the last run did', async () => {
    const { head, poolDir, run } = await aPooledRun();
    const a = await run('run-a');
    // Run A: edits, a secret, an ignored build folder, a commit, a branch, a tag, a stash, a hook, config.
    await writeFile(join(a.sandbox, 'README.md'), 'changed by run A\n');
    await writeFile(join(a.sandbox, 'secret.txt'), 'API_KEY=sk-live-run-a\n');
    await mkdir(join(a.sandbox, 'build'), { recursive: true });
    await writeFile(join(a.sandbox, 'build', 'out.js'), 'built\n');
    await gitIn(a.sandbox, ['add', 'secret.txt', 'README.md']);
    await gitIn(a.sandbox, ['-c', 'user.name=a', '-c', 'user.email=a@a', 'commit', '-qm', 'run A work']);
    const secretBlob = (await gitIn(a.sandbox, ['rev-parse', 'HEAD:secret.txt'])).trim();
    await gitIn(a.sandbox, ['branch', 'run-a-branch']);
    await gitIn(a.sandbox, ['tag', 'run-a-tag']);
    await writeFile(join(a.sandbox, 'src/a.js'), 'stashed\n');
    await gitIn(a.sandbox, ['-c', 'user.name=a', '-c', 'user.email=a@a', 'stash', '-q']);
    await writeFile(join(a.sandbox, '.git/hooks/post-checkout'), '#!/bin/sh\necho hooked > hooked.txt\n', { mode: 0o755 });
    await gitIn(a.sandbox, ['config', 'run.a', 'was-here']);

    expect(await releaseSandbox(a.sandbox, a.note, 8)).toBe('pooled');
    expect(existsSync(a.sandbox)).toBe(false);
    expect((await readdir(poolDir)).length).toBe(1);

    const b = await run('run-b');
    expect((await readdir(poolDir)).length).toBe(0);
    expect(await readTree(b.sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n', '.gitignore': 'build/\n' });
    expect(existsSync(join(b.sandbox, 'build'))).toBe(false);
    expect(existsSync(join(b.sandbox, 'hooked.txt'))).toBe(false);
    expect((await gitIn(b.sandbox, ['rev-parse', 'HEAD'])).trim()).toBe(head);
    expect(await raw(b.sandbox, ['status', '--porcelain', '--ignored', '-uall'])).toBe('');
    expect(await raw(b.sandbox, ['for-each-ref', '--format=%(refname)'])).not.toMatch(/run-a|stash|refs\/tags/);
    expect(await raw(b.sandbox, ['stash', 'list'])).toBe('');
    expect(await raw(b.sandbox, ['config', '--get', 'run.a'])).toBe('');
    expect(existsSync(join(b.sandbox, '.git/hooks/post-checkout'))).toBe(false);
    expect(new Set((await raw(b.sandbox, ['reflog', '--format=%H'])).split('\n').filter(Boolean))).toEqual(new Set([head.trim()]));
    // No object run A wrote is left, not even unreachable: the secret's blob is gone.
    expect((await execa('git', ['cat-file', '-e', secretBlob], { cwd: b.sandbox, reject: false })).exitCode).not.toBe(0);
    expect(await raw(b.sandbox, ['log', '--all', '--format=%s'])).not.toContain('run A work');
    expect(await raw(b.sandbox, ['remote', 'get-url', '--push', 'origin'])).toBe('evalflow-sandbox-push-disabled');
  });

  it('scrubs what a run did to the tree\'s shape: a folder moved away behind a symlink, a file turned folder, a folder turned file', async () => {
    const { repo, root, run } = await aPooledRun();
    const a = await run('run-a');
    const moved = join(root, 'moved-src');
    await rename(join(a.sandbox, 'src'), moved);
    await symlink(moved, join(a.sandbox, 'src'));
    await rm(join(a.sandbox, 'README.md'));
    await mkdir(join(a.sandbox, 'README.md'));
    await writeFile(join(a.sandbox, 'README.md', 'inside.txt'), 'run A\n');
    expect(await releaseSandbox(a.sandbox, a.note, 8)).toBe('pooled');
    const b = await run('run-b');
    expect((await lstat(join(b.sandbox, 'src'))).isDirectory()).toBe(true);
    expect(await readTree(b.sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n', '.gitignore': 'build/\n' });
    await rm(join(b.sandbox, 'src'), { recursive: true });
    await writeFile(join(b.sandbox, 'src'), 'a file where a folder was\n');
    expect(await releaseSandbox(b.sandbox, b.note, 8)).toBe('pooled');
    const c = await run('run-c');
    expect(await readTree(c.sandbox)).toEqual(await readTree(repo));
    expect(await raw(c.sandbox, ['status', '--porcelain', '--ignored', '-uall'])).toBe('');
  });

  it('scrubs a sandbox made without a kept base (an older one) in full: clean, then reset', async () => {
    const { root, run } = await aPooledRun();
    const a = await run('run-a');
    await rm(`${a.sandbox}.base-index`);
    const moved = join(root, 'moved-src');
    await rename(join(a.sandbox, 'src'), moved);
    await symlink(moved, join(a.sandbox, 'src'));
    await writeFile(join(a.sandbox, 'secret.txt'), 'API_KEY=sk-live-run-a\n');
    await gitIn(a.sandbox, ['add', 'secret.txt']);
    expect(await releaseSandbox(a.sandbox, a.note, 8)).toBe('pooled');
    const b = await run('run-b');
    expect((await lstat(join(b.sandbox, 'src'))).isDirectory()).toBe(true);
    expect(await readTree(b.sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n', '.gitignore': 'build/\n' });
    expect(await raw(b.sandbox, ['status', '--porcelain', '--ignored', '-uall'])).toBe('');
  });

  it('restores a file changed at once after the sandbox was made, to the same size (git\'s racy-entry check is kept)', async () => {
    const { run } = await aPooledRun();
    for (const name of ['run-a', 'run-b']) {
      const r = await run(name);
      await writeFile(join(r.sandbox, 'README.md'), 'HELLO\n');
      await writeFile(join(r.sandbox, 'src/a.js'), 'A\n');
      expect(await releaseSandbox(r.sandbox, r.note, 8)).toBe('pooled');
    }
    const c = await run('run-c');
    expect(await readTree(c.sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n', '.gitignore': 'build/\n' });
  });

  it('gives a sandbox back without obeying the run\'s git config: no fsmonitor or hook of the run is started', async () => {
    const { root, run } = await aPooledRun();
    const a = await run('run-a');
    const marker = join(root, 'run-a-code-ran');
    const script = join(root, 'fsmonitor.sh');
    await writeFile(script, `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    await gitIn(a.sandbox, ['config', 'core.fsmonitor', script]);
    await gitIn(a.sandbox, ['config', 'core.hooksPath', root]);
    await writeFile(join(a.sandbox, 'README.md'), 'changed by run A\n');
    expect(await releaseSandbox(a.sandbox, a.note, 8)).toBe('pooled');
    expect(existsSync(marker)).toBe(false);
    const b = await run('run-b');
    expect(await readFile(join(b.sandbox, 'README.md'), 'utf8')).toBe('hello\n');
    expect(await raw(b.sandbox, ['config', '--get', 'core.fsmonitor'])).toBe('');
  });

  it('reuses the clone it was given back: the next run takes it instead of cloning', async () => {
    const { poolDir, run } = await aPooledRun();
    const a = await run('run-a');
    const fileInode = (await stat(join(a.sandbox, 'README.md'))).ino;
    await releaseSandbox(a.sandbox, a.note, 8);
    const b = await run('run-b');
    // An unchanged file was not rewritten: same inode, so the files came from the pool.
    expect((await stat(join(b.sandbox, 'README.md'))).ino).toBe(fileInode);
    expect(await readdir(poolDir)).toEqual([]);
  });

  it('checks out a different revision in a pooled clone', async () => {
    const { repo, head, run } = await aPooledRun();
    await writeFile(join(repo, 'NEW.md'), 'new\n');
    await gitIn(repo, ['add', 'NEW.md']);
    await gitIn(repo, ['-c', 'user.name=u', '-c', 'user.email=u@u', 'commit', '-qm', 'second']);
    const second = (await gitIn(repo, ['rev-parse', 'HEAD'])).trim();
    const a = await run('run-a', head);
    await releaseSandbox(a.sandbox, a.note, 8);
    const b = await run('run-b', second);
    expect(await readFile(join(b.sandbox, 'NEW.md'), 'utf8')).toBe('new\n');
    expect((await gitIn(b.sandbox, ['rev-parse', 'HEAD'])).trim()).toBe(second);
  });

  it('removes instead of pooling when the pool is full, when pooling is off, and when .git is not the clone', async () => {
    const { poolDir, run } = await aPooledRun();
    const a = await run('run-a');
    const b = await run('run-b');
    const c = await run('run-c');
    expect(await releaseSandbox(a.sandbox, a.note, 1)).toBe('pooled');
    expect(await releaseSandbox(b.sandbox, b.note, 1)).toBe('removed');
    expect(await releaseSandbox(c.sandbox, c.note, 0)).toBe('removed');
    expect((await readdir(poolDir)).length).toBe(1);

    const d = await run('run-d');
    const e = await run('run-e');
    await writeFile(join(e.sandbox, '.git/objects/info/alternates'), '/elsewhere/objects\n');
    expect(await releaseSandbox(e.sandbox, e.note, 8)).toBe('removed');
    expect(await releaseSandbox(d.sandbox, d.note, 8)).toBe('pooled');
    expect(existsSync(e.sandbox)).toBe(false);
  });

  it('hands one pooled clone to one run only', async () => {
    const { poolDir, run, root } = await aPooledRun();
    const a = await run('run-a');
    await releaseSandbox(a.sandbox, a.note, 8);
    const taken = await Promise.all(Array.from({ length: 4 }, (_, i) => takePooled(poolDir, join(root, `taker-${i}`, 'work'))));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('reads its size from EVALFLOW_SANDBOX_POOL', () => {
    expect(poolSize({})).toBe(8);
    expect(poolSize({ EVALFLOW_SANDBOX_POOL: '0' })).toBe(0);
    expect(poolSize({ EVALFLOW_SANDBOX_POOL: '3' })).toBe(3);
    expect(poolSize({ EVALFLOW_SANDBOX_POOL: 'lots' })).toBe(8);
  });
});
