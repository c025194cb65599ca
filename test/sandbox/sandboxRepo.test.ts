import { existsSync } from 'node:fs';
import { readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { historyBaseDir } from '../../src/sandbox/historyBase.js';
import { createSandbox, hideFromGit, removeSandbox } from '../../src/sandbox/sandboxRepo.js';
import { createRepo, gitIn, readTree, tempDir, writeFiles } from './sandboxFixture.js';

/** A host's sandbox root, where the history bases go. */
const aRoot = async () => ({ sandboxRoot: await tempDir('evalflow-root-') });

async function aSandbox(): Promise<{ repo: string; sandbox: string; runDir: string; head: string; root: { sandboxRoot: string } }> {
  const repo = await createRepo({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
  const runDir = await tempDir('evalflow-run-');
  const sandbox = join(runDir, 'sandbox');
  const head = await gitIn(repo, ['rev-parse', 'HEAD']);
  const root = await aRoot();
  await createSandbox(repo, sandbox, head, root);
  return { repo, sandbox, runDir, head, root };
}

const statusLines = async (dir: string) =>
  (await gitIn(dir, ['status', '--porcelain', '-uall'])).split('\n').map((l) => l.trim()).filter(Boolean).sort();

/** Everything of a repository that a sandbox could change: refs, objects, worktrees, config. */
async function repoState(repo: string) {
  const raw = async (args: string[]) => String((await execa('git', args, { cwd: repo })).stdout);
  return {
    refs: await raw(['for-each-ref', '--format=%(refname) %(objectname)']),
    objects: await raw(['count-objects', '-v']),
    unreachable: await raw(['fsck', '--unreachable', '--no-reflogs', '--no-progress']),
    worktrees: await raw(['worktree', 'list', '--porcelain']),
    config: await readFile(join(repo, '.git', 'config'), 'utf8'),
  };
}

describe('createSandbox', () => {
  it('makes a detached clone at the revision that borrows the objects of the revision\'s history base', async () => {
    const { repo, sandbox, head, root } = await aSandbox();
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    expect(await gitIn(sandbox, ['rev-parse', 'HEAD'])).toBe(head);
    expect(await gitIn(sandbox, ['symbolic-ref', '-q', 'HEAD']).catch(() => 'detached')).toBe('detached');
    expect(await readFile(join(sandbox, '.git/objects/info/alternates'), 'utf8')).toBe(`${join(historyBaseDir(root.sandboxRoot, repo, head), 'objects')}\n`);
    expect(await gitIn(sandbox, ['remote', 'get-url', 'origin'])).toBe(historyBaseDir(root.sandboxRoot, repo, head));
    expect(await statusLines(sandbox)).toEqual([]);
  });

  it('never writes into the project repository: commits, branches and pushes stay in the sandbox', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const before = await repoState(repo);
    const sandbox = join(await tempDir(), 'sandbox');
    await createSandbox(repo, sandbox, await gitIn(repo, ['rev-parse', 'HEAD']), await aRoot());
    await writeFiles(sandbox, { 'secret.env': 'API_KEY=sk-live-should-never-leave' });
    await gitIn(sandbox, ['checkout', '-q', '-b', 'candidate-branch']);
    await gitIn(sandbox, ['add', '-A']);
    await gitIn(sandbox, ['commit', '-qm', 'candidate commit']);
    await expect(gitIn(sandbox, ['push', 'origin', 'candidate-branch'])).rejects.toThrow();
    await removeSandbox(sandbox);
    expect(await repoState(repo)).toEqual(before);
  });

  it('is idempotent: a made sandbox is kept exactly as it is, the candidate\'s work included', async () => {
    const { repo, sandbox, head, root } = await aSandbox();
    await writeFile(join(sandbox, 'work-in-progress.txt'), 'keep me');
    await writeFile(join(sandbox, 'README.md'), 'edited by the candidate\n');
    await gitIn(sandbox, ['commit', '-qam', 'candidate commit']);
    const candidateHead = await gitIn(sandbox, ['rev-parse', 'HEAD']);
    await createSandbox(repo, sandbox, head, root);
    expect(await readTree(sandbox)).toMatchObject({ 'work-in-progress.txt': 'keep me', 'README.md': 'edited by the candidate\n' });
    expect(await gitIn(sandbox, ['rev-parse', 'HEAD'])).toBe(candidateHead);
  });

  it('completes a sandbox whose checkout was interrupted (cloned, files missing)', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    const sandbox = join(await tempDir(), 'sandbox');
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    const root = await aRoot();
    const base = historyBaseDir(root.sandboxRoot, repo, head);
    // What a crash right after `git clone --no-checkout` leaves.
    const other = join(await tempDir(), 'sandbox');
    await createSandbox(repo, other, head, root);
    await execa('git', ['clone', '-q', '--shared', '--no-checkout', base, sandbox]);
    expect(await readTree(sandbox)).toEqual({});
    const gitDirInode = (await stat(join(sandbox, '.git'))).ino;
    await createSandbox(repo, sandbox, head, root);
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
    expect(await statusLines(sandbox)).toEqual([]);
    expect((await stat(join(sandbox, '.git'))).ino).toBe(gitDirInode);
  });

  it('makes again, from the base, a half-made sandbox that is a clone of the user\'s repository (as older versions made them)', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const sandbox = join(await tempDir(), 'sandbox');
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    const root = await aRoot();
    await execa('git', ['clone', '-q', '--shared', '--no-checkout', repo, sandbox]);
    await createSandbox(repo, sandbox, head, root);
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n' });
    expect(await readFile(join(sandbox, '.git/objects/info/alternates'), 'utf8')).toBe(`${join(historyBaseDir(root.sandboxRoot, repo, head), 'objects')}\n`);
  });

  it('replaces a half-made folder that is not a repository', async () => {
    const repo = await createRepo({ 'README.md': 'hello\n' });
    const sandbox = join(await tempDir(), 'sandbox');
    await writeFiles(sandbox, { 'leftover.txt': 'x' });
    await createSandbox(repo, sandbox, await gitIn(repo, ['rev-parse', 'HEAD']), await aRoot());
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n' });
  });

  it('starts at an older revision, or one no branch points at, when asked', async () => {
    const repo = await createRepo({ 'v.txt': '1' });
    const first = await gitIn(repo, ['rev-parse', 'HEAD']);
    await writeFiles(repo, { 'v.txt': '2' });
    await gitIn(repo, ['commit', '-qam', 'two']);
    await gitIn(repo, ['checkout', '-q', '--detach']);
    await writeFiles(repo, { 'v.txt': '3' });
    await gitIn(repo, ['commit', '-qam', 'three, on no branch']);
    const detached = await gitIn(repo, ['rev-parse', 'HEAD']);
    const root = await aRoot();
    const old = join(await tempDir(), 'old');
    await createSandbox(repo, old, first, root);
    expect(await readTree(old)).toEqual({ 'v.txt': '1' });
    expect(await gitIn(old, ['log', '--all', '--format=%s'])).toBe('initial');
    const loose = join(await tempDir(), 'loose');
    await createSandbox(repo, loose, detached, root);
    expect(await readTree(loose)).toEqual({ 'v.txt': '3' });
  });
});

describe('hideFromGit', () => {
  it('hides the placed paths from git status in the sandbox only, and keeps the list once', async () => {
    const { repo, sandbox, runDir } = await aSandbox();
    const snapshot = await writeFiles(join(runDir, 'workflow'), { 'rules/style.md': 'be nice' });
    await symlink(snapshot, join(sandbox, '.claude'));
    await writeFiles(sandbox, { 'AGENTS.md': '# team', 'nested/CLAUDE.md': '# nested' });
    await hideFromGit(sandbox, ['.claude', 'AGENTS.md', '/nested/CLAUDE.md']);
    await hideFromGit(sandbox, ['AGENTS.md']);
    expect(await gitIn(sandbox, ['status', '--porcelain'])).toBe('');
    expect((await readFile(join(sandbox, '.git/info/exclude'), 'utf8')).split('\n').filter((l) => l === '/AGENTS.md')).toHaveLength(1);

    // The candidate's own work is still visible...
    await writeFiles(sandbox, { 'new.txt': 'candidate', 'sub/AGENTS.md': 'not ours' });
    await writeFile(join(sandbox, 'README.md'), 'changed\n');
    expect(await statusLines(sandbox)).toEqual(['?? new.txt', '?? sub/AGENTS.md', 'M README.md']);

    // ...and the user's own checkout does not hide the same names.
    await writeFiles(repo, { 'AGENTS.md': 'mine', '.claude/settings.json': '{}' });
    expect(await statusLines(repo)).toEqual(['?? .claude/settings.json', '?? AGENTS.md']);
  });
});

describe('removeSandbox', () => {
  it("removes the folder: 'removed', then 'absent'", async () => {
    const { sandbox } = await aSandbox();
    await writeFiles(sandbox, { 'dirty.txt': 'x' });
    expect(await removeSandbox(sandbox)).toBe('removed');
    expect(existsSync(sandbox)).toBe(false);
    expect(await removeSandbox(sandbox)).toBe('absent');
  });

  it('works when the project repository is gone, and lets the same path be used again', async () => {
    const { repo, sandbox, head, root } = await aSandbox();
    const copy = join(await tempDir(), 'repo-copy');
    await execa('cp', ['-r', repo, copy]);
    await rm(repo, { recursive: true, force: true });
    expect(await removeSandbox(sandbox)).toBe('removed');
    await createSandbox(copy, sandbox, head, root);
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'hello\n', 'src/a.js': 'a\n' });
  });
});
