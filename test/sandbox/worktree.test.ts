import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, hideFromGit, removeWorktree } from '../../src/sandbox/worktree.js';
import { createRepo, gitIn, readTree, tempDir, writeFiles } from './sandboxFixture.js';

async function aSandbox(): Promise<{ repo: string; sandbox: string; runDir: string; head: string }> {
  const repo = await createRepo({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
  const runDir = await tempDir('evalflow-run-');
  const sandbox = join(runDir, 'sandbox');
  const head = await gitIn(repo, ['rev-parse', 'HEAD']);
  await createWorktree(repo, sandbox, head);
  return { repo, sandbox, runDir, head };
}

const worktreePaths = async (repo: string) =>
  (await gitIn(repo, ['worktree', 'list', '--porcelain'])).split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice(9));

const statusLines = async (dir: string) =>
  (await gitIn(dir, ['status', '--porcelain', '-uall'])).split('\n').map((l) => l.trim()).filter(Boolean).sort();

describe('createWorktree', () => {
  it('adds a detached worktree at the revision', async () => {
    const { repo, sandbox, head } = await aSandbox();
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    expect(await gitIn(sandbox, ['rev-parse', 'HEAD'])).toBe(head);
    expect(await gitIn(sandbox, ['symbolic-ref', '-q', 'HEAD']).catch(() => 'detached')).toBe('detached');
    expect(await worktreePaths(repo)).toContain(sandbox);
  });

  it('is idempotent: a retried prepare keeps the existing worktree and its changes', async () => {
    const { repo, sandbox, head } = await aSandbox();
    await writeFile(join(sandbox, 'work-in-progress.txt'), 'keep me');
    await createWorktree(repo, sandbox, head);
    expect(await readTree(sandbox)).toMatchObject({ 'work-in-progress.txt': 'keep me' });
  });

  it('completes a worktree whose checkout was interrupted (HEAD set, files missing)', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    const sandbox = join(await tempDir(), 'sandbox');
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    // What a crash inside `git worktree add` leaves: the worktree is registered, nothing is checked out.
    await gitIn(repo, ['worktree', 'add', '--no-checkout', '--detach', sandbox, head]);
    expect(await readTree(sandbox)).toEqual({});
    await createWorktree(repo, sandbox, head);
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    expect(await statusLines(sandbox)).toEqual([]);
  });

  it('replaces a half-made folder that is not a worktree', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const sandbox = join(await tempDir(), 'sandbox');
    await writeFiles(sandbox, { 'leftover.txt': 'x' });
    await createWorktree(repo, sandbox, await gitIn(repo, ['rev-parse', 'HEAD']));
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n' });
  });

  it('starts at an older revision when asked', async () => {
    const repo = await createRepo({ 'v.txt': '1' });
    const first = await gitIn(repo, ['rev-parse', 'HEAD']);
    await writeFiles(repo, { 'v.txt': '2' });
    await gitIn(repo, ['commit', '-qam', 'two']);
    const sandbox = join(await tempDir(), 'sandbox');
    await createWorktree(repo, sandbox, first);
    expect(await readTree(sandbox)).toEqual({ 'v.txt': '1' });
  });
});

describe('hideFromGit', () => {
  it('hides the placed paths from git status in the worktree only', async () => {
    const { repo, sandbox, runDir } = await aSandbox();
    const snapshot = await writeFiles(join(runDir, 'workflow'), { 'rules/style.md': 'be nice' });
    await symlink(snapshot, join(sandbox, '.claude'));
    await writeFiles(sandbox, { 'AGENTS.md': '# team', 'nested/CLAUDE.md': '# nested' });
    await hideFromGit(sandbox, join(runDir, 'git-excludes'), ['.claude', 'AGENTS.md', '/nested/CLAUDE.md']);
    expect(await gitIn(sandbox, ['status', '--porcelain'])).toBe('');

    // The candidate's own work is still visible...
    await writeFiles(sandbox, { 'new.txt': 'candidate', 'sub/AGENTS.md': 'not ours' });
    await writeFile(join(sandbox, 'README.md'), 'changed\n');
    expect(await statusLines(sandbox)).toEqual(['?? new.txt', '?? sub/AGENTS.md', 'M README.md']);

    // ...and the user's own checkout does not hide the same names.
    await writeFiles(repo, { 'AGENTS.md': 'mine', '.claude/settings.json': '{}' });
    expect(await statusLines(repo)).toEqual(['?? .claude/settings.json', '?? AGENTS.md']);
  });

  it('does not hide paths from a second worktree of the same repository', async () => {
    const { repo, sandbox, runDir, head } = await aSandbox();
    await writeFiles(sandbox, { 'AGENTS.md': '# team' });
    await hideFromGit(sandbox, join(runDir, 'git-excludes'), ['AGENTS.md']);
    const other = join(await tempDir(), 'other');
    await createWorktree(repo, other, head);
    await writeFiles(other, { 'AGENTS.md': 'user file' });
    expect(await gitIn(other, ['status', '--porcelain'])).toBe('?? AGENTS.md');
    expect(await gitIn(sandbox, ['status', '--porcelain'])).toBe('');
  });
});

describe('removeWorktree', () => {
  it("removes the worktree through git: 'removed'", async () => {
    const { repo, sandbox } = await aSandbox();
    await writeFiles(sandbox, { 'dirty.txt': 'x' });
    expect(await removeWorktree(repo, sandbox)).toBe('removed');
    expect(existsSync(sandbox)).toBe(false);
    expect(await worktreePaths(repo)).not.toContain(sandbox);
  });

  it("deletes the folder when git cannot remove it: 'deleted'", async () => {
    const { repo, sandbox } = await aSandbox();
    await rm(repo, { recursive: true, force: true });
    expect(await removeWorktree(repo, sandbox)).toBe('deleted');
    expect(existsSync(sandbox)).toBe(false);
  });

  it("deletes a folder that is not a worktree of the repository: 'deleted'", async () => {
    const repo = await createRepo({ 'README.md': 'x' });
    const stray = await writeFiles(join(await tempDir(), 'stray'), { 'a.txt': 'a' });
    expect(await removeWorktree(repo, stray)).toBe('deleted');
    expect(existsSync(stray)).toBe(false);
  });

  it("reports 'absent' when the sandbox is already gone, and prunes git's record of it", async () => {
    const { repo, sandbox } = await aSandbox();
    await rm(sandbox, { recursive: true, force: true });
    expect(await removeWorktree(repo, sandbox)).toBe('absent');
    expect(await worktreePaths(repo)).not.toContain(sandbox);
    expect(await removeWorktree(join(await tempDir(), 'gone-repo'), join(await tempDir(), 'gone'))).toBe('absent');
  });

  it('lets the same sandbox path be created again afterwards', async () => {
    const { repo, sandbox, head } = await aSandbox();
    await removeWorktree(repo, sandbox);
    await mkdir(sandbox, { recursive: true });
    await createWorktree(repo, sandbox, head);
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
  });
});
