import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { restoreTurnCheckpoint, saveTurnCheckpoint } from '../../src/sandbox/checkpoint.js';
import { ensureMirrorAt } from '../../src/sandbox/gitMirror.js';
import { ensureHistoryBase, historyBaseDir } from '../../src/sandbox/historyBase.js';
import { ensureProjectRepo } from '../../src/sandbox/projectRepo.js';
import { notePool, poolDirFor, releaseSandbox } from '../../src/sandbox/sandboxPool.js';
import { createSandbox } from '../../src/sandbox/sandboxRepo.js';
import { sweepHost } from '../../src/sandbox/sweepHost.js';
import { createRepo, gitIn, readTree, tempDir, writeFiles } from './sandboxFixture.js';

/**
 * A user's repository where the case's commit A is not the newest: B, on branch `solution`
 * and tagged `v-solution`, holds the answer; `main` is back at A.
 */
async function aRepoWithASolution() {
  const repo = await createRepo({ 'README.md': 'the task\n', 'src/a.js': 'a\n' });
  const a = await gitIn(repo, ['rev-parse', 'HEAD']);
  await gitIn(repo, ['checkout', '-q', '-b', 'solution']);
  await writeFiles(repo, { 'solution.txt': 'the answer\n', 'src/a.js': 'a, solved\n' });
  await gitIn(repo, ['add', '-A']);
  await gitIn(repo, ['commit', '-qm', 'the solution']);
  const b = await gitIn(repo, ['rev-parse', 'HEAD']);
  await gitIn(repo, ['tag', '-a', 'v-solution', '-m', 'solved']);
  await gitIn(repo, ['checkout', '-q', 'main']);
  return { repo, a, b };
}

const run = (cwd: string, args: string[]) => execa('git', args, { cwd, reject: false });
const out = async (cwd: string, args: string[]) => String((await run(cwd, args)).stdout);
/** Every object id a repository holds, its alternates' included, sorted. */
const allObjects = async (cwd: string) => (await out(cwd, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)'])).split('\n').filter(Boolean).sort();
/** The ids of the objects `rev` reaches in `repo`, sorted. */
const reachable = async (repo: string, rev: string) => [...new Set((await out(repo, ['rev-list', '--objects', rev])).split('\n').filter(Boolean).map((line) => line.split(' ')[0]!))].sort();

/** What a sandbox could change of the user's repository: refs, objects, config. */
async function userState(repo: string) {
  return {
    refs: await out(repo, ['for-each-ref', '--format=%(refname) %(objectname)']),
    objects: await out(repo, ['count-objects', '-v']),
    all: await allObjects(repo),
    config: await readFile(join(repo, '.git', 'config'), 'utf8'),
    head: await readFile(join(repo, '.git', 'HEAD'), 'utf8'),
  };
}

/** What a candidate could learn of history beyond the case's commit A. */
async function expectOnlyTheCase(sandbox: string, repo: string, a: string, b: string) {
  expect(await out(sandbox, ['log', '--all', '--format=%H'])).toBe(a);
  expect(await out(sandbox, ['tag'])).toBe('');
  // The one branch, as a clone has it (local, origin's, origin's HEAD naming it); the detached HEAD's line aside.
  const branches = (await out(sandbox, ['branch', '-a'])).split('\n').map((line) => line.slice(2)).filter((line) => line && !line.startsWith('('));
  expect(branches).toEqual(['main', 'remotes/origin/HEAD -> origin/main', 'remotes/origin/main']);
  expect(await out(sandbox, ['for-each-ref', '--format=%(refname)'])).toBe(['refs/heads/main', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main'].join('\n'));
  expect((await run(sandbox, ['show', 'v-solution:solution.txt'])).exitCode).not.toBe(0);
  expect((await run(sandbox, ['cat-file', '-e', b])).exitCode).not.toBe(0);
  expect((await run(sandbox, ['cat-file', '-e', `${b}:solution.txt`])).exitCode).not.toBe(0);
  expect(await allObjects(sandbox)).toEqual(await reachable(repo, a));
  const alternates = await readFile(join(sandbox, '.git', 'objects', 'info', 'alternates'), 'utf8');
  expect(alternates).not.toContain(repo);
}

describe('historyBaseDir', () => {
  it('is a dot folder under the sandbox root, one per repository and commit', () => {
    const rev = 'a'.repeat(40);
    const dir = historyBaseDir('/host', '/projects/x', rev);
    expect(dir).toMatch(new RegExp(`^/host/\\.bases/[0-9a-f]{16}/${rev}\\.git$`));
    expect(historyBaseDir('/host', '/projects/x', rev)).toBe(dir);
    expect(historyBaseDir('/host', '/projects/y', rev)).not.toBe(dir);
    expect(() => historyBaseDir('/host', '/projects/x', 'main')).toThrow(/full commit id/);
  });
});

describe('ensureHistoryBase', () => {
  it('holds exactly the objects the commit reaches and one branch, named as the user\'s HEAD\'s, and reads the user\'s repository only', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    await gitIn(repo, ['checkout', '-q', '-b', 'trunk', a]);
    const before = await userState(repo);
    const root = await tempDir('evalflow-root-');
    const base = await ensureHistoryBase(root, repo, a);
    expect(base).toBe(historyBaseDir(root, repo, a));
    expect(await out(base, ['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(`refs/heads/trunk ${a}`);
    expect(await out(base, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/trunk');
    expect(await allObjects(base)).toEqual(await reachable(repo, a));
    expect((await run(base, ['cat-file', '-e', b])).exitCode).not.toBe(0);
    expect(existsSync(join(base, 'objects', 'info', 'alternates'))).toBe(false);
    expect(await out(base, ['fsck', '--no-progress'])).toBe('');
    expect(await userState(repo)).toEqual(before);
  });

  it('names the branch main when the user\'s HEAD is detached, and makes a base once however many ask at once', async () => {
    const { repo, a } = await aRepoWithASolution();
    await gitIn(repo, ['checkout', '-q', '--detach', 'solution']);
    const root = await tempDir('evalflow-root-');
    const made = await Promise.all(Array.from({ length: 4 }, () => ensureHistoryBase(root, repo, a)));
    expect(new Set(made)).toEqual(new Set([historyBaseDir(root, repo, a)]));
    expect(await out(made[0]!, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
    expect(await readdir(join(made[0]!, '..'))).toEqual([`${a}.git`]);
    const inode = (await stat(made[0]!)).ino;
    expect(await ensureHistoryBase(root, repo, a)).toBe(made[0]);
    expect((await stat(made[0]!)).ino).toBe(inode);
  });

  it('keeps one base per commit, and drops what a maker that died long ago left half-made', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const root = await tempDir('evalflow-root-');
    const home = join(historyBaseDir(root, repo, a), '..');
    const abandoned = join(home, 'making-dead.git');
    const recent = join(home, 'making-busy.git');
    await mkdir(abandoned, { recursive: true });
    await mkdir(recent, { recursive: true });
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(abandoned, longAgo, longAgo);
    await ensureHistoryBase(root, repo, a);
    await ensureHistoryBase(root, repo, b);
    expect((await readdir(home)).sort()).toEqual([`${a}.git`, `${b}.git`, 'making-busy.git'].sort());
    expect(await allObjects(historyBaseDir(root, repo, b))).toEqual(await reachable(repo, b));
  });

  it('ends where a shallow user repository ends, and the sandbox\'s git walks that history', async () => {
    const { repo } = await aRepoWithASolution();
    await writeFiles(repo, { 'README.md': 'the task, later\n' });
    await gitIn(repo, ['commit', '-qam', 'later']);
    const shallow = join(await tempDir(), 'shallow');
    await execa('git', ['clone', '-q', '--depth', '1', `file://${repo}`, shallow]);
    const head = await gitIn(shallow, ['rev-parse', 'HEAD']);
    const sandbox = join(await tempDir(), 'sandbox');
    await createSandbox(shallow, sandbox, head, { sandboxRoot: await tempDir('evalflow-root-') });
    expect(await gitIn(sandbox, ['log', '--format=%s'])).toBe('later');
    expect(await allObjects(sandbox)).toEqual(await reachable(shallow, head));
  });

  it('is left alone by the host sweep', async () => {
    const { repo, a } = await aRepoWithASolution();
    const root = await tempDir('evalflow-root-');
    const base = await ensureHistoryBase(root, repo, a);
    await mkdir(join(root, 'run-over'), { recursive: true });
    const report = await sweepHost(root, async () => 'over');
    expect(report.removed).toEqual(['run-over']);
    expect(existsSync(join(base, 'HEAD'))).toBe(true);
  });
});

describe('a sandbox\'s history is the case\'s, nothing more', () => {
  it('shows no later commit, branch or tag of the user\'s, and lists only the objects the case\'s commit reaches', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const sandbox = join(await tempDir(), 'sandbox');
    await createSandbox(repo, sandbox, a, { sandboxRoot: await tempDir('evalflow-root-') });
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'the task\n', 'src/a.js': 'a\n' });
    await expectOnlyTheCase(sandbox, repo, a, b);
  });

  it('does the same when the user\'s HEAD is on the solution: the one branch is named after it, at the case\'s commit', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    await gitIn(repo, ['checkout', '-q', 'solution']);
    const sandbox = join(await tempDir(), 'sandbox');
    await createSandbox(repo, sandbox, a, { sandboxRoot: await tempDir('evalflow-root-') });
    expect(await out(sandbox, ['log', '--all', '--format=%H'])).toBe(a);
    expect(await out(sandbox, ['rev-parse', 'origin/solution'])).toBe(a);
    expect(await allObjects(sandbox)).toEqual(await reachable(repo, a));
    expect((await run(sandbox, ['cat-file', '-e', b])).exitCode).not.toBe(0);
  });

  it('lets the candidate commit and checkpoints be saved and restored, and the user\'s repository and the base stay as they were', async () => {
    const { repo, a } = await aRepoWithASolution();
    const before = await userState(repo);
    const root = await tempDir('evalflow-root-');
    const runDir = await tempDir('evalflow-run-');
    const sandbox = join(runDir, 'sandbox');
    await createSandbox(repo, sandbox, a, { sandboxRoot: root });
    const base = historyBaseDir(root, repo, a);
    const baseObjects = await allObjects(base);
    await writeFiles(sandbox, { 'src/a.js': 'a, by the candidate\n' });
    await gitIn(sandbox, ['commit', '-qam', 'candidate work']);
    const candidate = await gitIn(sandbox, ['rev-parse', 'HEAD']);
    await writeFiles(sandbox, { 'notes.txt': 'turn 2\n' });
    const checkpoint = await saveTurnCheckpoint(sandbox, join(runDir, 'checkpoints'));
    await writeFiles(sandbox, { 'notes.txt': 'a failed attempt\n' });
    await restoreTurnCheckpoint(sandbox, join(runDir, 'checkpoints'), checkpoint);
    expect(await readFile(join(sandbox, 'notes.txt'), 'utf8')).toBe('turn 2\n');
    expect(checkpoint.head).toBe(candidate);
    expect((await run(sandbox, ['push', 'origin', 'HEAD:refs/heads/main'])).exitCode).not.toBe(0);
    expect(await userState(repo)).toEqual(before);
    expect(await allObjects(base)).toEqual(baseObjects);
    expect(await out(base, ['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(`refs/heads/main ${a}`);
  });

  it('holds for a project given by URL: the host\'s mirror holds the solution, its branch and tag, the sandbox only the pinned commit\'s history', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const bare = join(await tempDir('evalflow-remote-'), 'app.git');
    await gitIn(repo, ['clone', '-q', '--bare', repo, bare]);
    await gitIn(bare, ['fetch', '-q', repo, '+refs/*:refs/*']);
    const url = pathToFileURL(bare).href;
    const stateDir = await tempDir('evalflow-home-');
    // The mirror holds everything of the remote, as a fetch of every branch and tag leaves it.
    const mirror = await ensureMirrorAt(stateDir, url, a, 'project');
    await gitIn(mirror, ['fetch', '-q', url, '+refs/*:refs/*']);
    expect(await out(mirror, ['tag'])).toBe('v-solution');
    const project = await ensureProjectRepo(url, stateDir, a);
    const root = await tempDir('evalflow-root-');
    const sandbox = join(root, 'run');
    await createSandbox(project.repoDir, sandbox, project.rev, { sandboxRoot: root, poolDir: poolDirFor(root, project.repoDir) });
    expect(await readTree(sandbox)).toEqual({ 'README.md': 'the task\n', 'src/a.js': 'a\n' });
    await expectOnlyTheCase(sandbox, repo, a, b);
    expect(await readFile(join(sandbox, '.git', 'objects', 'info', 'alternates'), 'utf8')).not.toContain(mirror);
  });

  it('holds through the pool: a clone given back at the solution and taken at the case lists only the case\'s objects', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const root = await tempDir('evalflow-root-');
    const poolDir = poolDirFor(root, repo);
    const at = async (name: string, rev: string) => {
      const hostDir = join(root, name);
      await mkdir(hostDir, { recursive: true });
      const note = join(hostDir, 'pool.json');
      await notePool(note, { poolDir, sandboxRoot: root, repoDir: repo, rev });
      await createSandbox(repo, join(hostDir, 'work'), rev, { sandboxRoot: root, poolDir });
      return { sandbox: join(hostDir, 'work'), note };
    };
    const first = await at('run-b', b);
    expect(await readFile(join(first.sandbox, 'solution.txt'), 'utf8')).toBe('the answer\n');
    const inode = (await stat(join(first.sandbox, 'README.md'))).ino;
    expect(await releaseSandbox(first.sandbox, first.note, 8)).toBe('pooled');
    const second = await at('run-a', a);
    expect((await stat(join(second.sandbox, 'README.md'))).ino).toBe(inode);
    expect(await readTree(second.sandbox)).toEqual({ 'README.md': 'the task\n', 'src/a.js': 'a\n' });
    await expectOnlyTheCase(second.sandbox, repo, a, b);
    expect(await out(second.sandbox, ['status', '--porcelain', '--ignored', '-uall'])).toBe('');
    // Given back at A, it is pooled at A and taken at A as it is, still with A's history only.
    expect(await releaseSandbox(second.sandbox, second.note, 8)).toBe('pooled');
    const third = await at('run-a2', a);
    await expectOnlyTheCase(third.sandbox, repo, a, b);
  });

  it('does not take as it is a pooled clone that borrows from the user\'s repository (as older versions pooled them)', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const root = await tempDir('evalflow-root-');
    const poolDir = poolDirFor(root, repo);
    const hostDir = join(root, 'run-old');
    await mkdir(hostDir, { recursive: true });
    await notePool(join(hostDir, 'pool.json'), { poolDir, sandboxRoot: root, repoDir: repo, rev: a });
    await createSandbox(repo, join(hostDir, 'work'), a, { sandboxRoot: root, poolDir });
    expect(await releaseSandbox(join(hostDir, 'work'), join(hostDir, 'pool.json'), 8)).toBe('pooled');
    const [pooled] = await readdir(poolDir);
    await writeFile(join(poolDir, pooled!, '.git', 'objects', 'info', 'alternates'), `${join(repo, '.git', 'objects')}\n`);
    await gitIn(join(poolDir, pooled!), ['update-ref', 'refs/remotes/origin/solution', b]);
    const sandbox = join(root, 'run-new', 'work');
    await createSandbox(repo, sandbox, a, { sandboxRoot: root, poolDir });
    expect(await readdir(poolDir)).toEqual([]);
    await expectOnlyTheCase(sandbox, repo, a, b);
  });

  it('removes, never pools, a clone whose alternates the run rewrote: to the user\'s repository, or another commit\'s base', async () => {
    const { repo, a, b } = await aRepoWithASolution();
    const root = await tempDir('evalflow-root-');
    const poolDir = poolDirFor(root, repo);
    const otherBase = await ensureHistoryBase(root, repo, b);
    for (const [i, line] of [join(repo, '.git', 'objects'), join(otherBase, 'objects'), `${join(historyBaseDir(root, repo, a), 'objects')}\n${join(repo, '.git', 'objects')}`].entries()) {
      const hostDir = join(root, `run-${i}`);
      await mkdir(hostDir, { recursive: true });
      const note = join(hostDir, 'pool.json');
      await notePool(note, { poolDir, sandboxRoot: root, repoDir: repo, rev: a });
      const sandbox = join(hostDir, 'work');
      await createSandbox(repo, sandbox, a, { sandboxRoot: root, poolDir });
      await writeFile(join(sandbox, '.git', 'objects', 'info', 'alternates'), `${line}\n`);
      expect(await releaseSandbox(sandbox, note, 8)).toBe('removed');
      expect(existsSync(sandbox)).toBe(false);
    }
    expect(existsSync(poolDir) ? await readdir(poolDir) : []).toEqual([]);
  });
});
