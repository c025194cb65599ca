import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/errors.js';
import { ensureProjectRepo, uncommittedChanges } from '../../src/sandbox/projectRepo.js';
import { createRepo, gitIn, tempDir, writeFiles } from './sandboxFixture.js';

const PROJECT = {
  'package.json': '{"name":"demo"}\n',
  'src/index.js': 'export const x = 1;\n',
  'scripts/build.sh': '#!/bin/sh\necho build\n',
};

async function plainFolder(files: Record<string, string> = PROJECT): Promise<string> {
  return writeFiles(join(await tempDir('evalflow-plain-'), 'demo'), files);
}

async function trackedFiles(repoDir: string): Promise<string[]> {
  return (await gitIn(repoDir, ['ls-files'])).split('\n').filter(Boolean).sort();
}

describe('ensureProjectRepo: a git repository', () => {
  it('is used as it is, at its HEAD', async () => {
    const repo = await createRepo(PROJECT);
    const head = await gitIn(repo, ['rev-parse', 'HEAD']);
    const stateDir = await tempDir();
    expect(await ensureProjectRepo(repo, stateDir)).toEqual({ repoDir: repo, rev: head, imported: false });
    expect(existsSync(join(stateDir, 'projects'))).toBe(false);
  });

  it('is recognised through a symlinked path', async () => {
    const repo = await createRepo(PROJECT);
    const link = join(await tempDir(), 'linked-project');
    await symlink(repo, link);
    const result = await ensureProjectRepo(link, await tempDir());
    expect(result.imported).toBe(false);
    expect(result.rev).toBe(await gitIn(repo, ['rev-parse', 'HEAD']));
  });

  it('without any commit is a SandboxError that says what to do', async () => {
    const repo = await tempDir('evalflow-empty-repo-');
    await gitIn(repo, ['init', '-q']);
    const err = await ensureProjectRepo(repo, await tempDir()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as Error).message).toBe(`project repository ${repo} has no commit yet; commit something first`);
  });

});

describe('ensureProjectRepo: not a folder', () => {
  const expected = 'expected a folder (a git repository or a plain folder)';

  it('a missing path is a SandboxError naming it', async () => {
    const missing = join(await tempDir(), 'nope');
    await expect(ensureProjectRepo(missing, await tempDir())).rejects.toThrow(
      new SandboxError(`project folder ${missing}: ${expected}, found no such file or folder`),
    );
  });

  it('a file is a SandboxError naming it, not a bare ENOTDIR, and nothing is imported', async () => {
    const file = join(await writeFiles(await tempDir(), { 'project.json': '{}' }), 'project.json');
    const stateDir = await tempDir();
    await expect(ensureProjectRepo(file, stateDir)).rejects.toThrow(new SandboxError(`project folder ${file}: ${expected}, found a file`));
    await expect(ensureProjectRepo(join(file, 'src'), stateDir)).rejects.toThrow(
      new SandboxError(`project folder ${join(file, 'src')}: ${expected}, found no such file or folder`),
    );
    expect(await readdir(stateDir)).toEqual([]);
  });
});

describe('uncommittedChanges', () => {
  it('lists what a sandbox at HEAD will not have: modified and untracked files, not ignored ones', async () => {
    const repo = await createRepo({ ...PROJECT, '.gitignore': 'dist/\n' });
    expect(await uncommittedChanges(repo)).toEqual([]);
    await writeFiles(repo, { 'src/index.js': 'export const x = 2;\n', 'src/new.js': 'new\n', 'dist/out.js': 'built\n' });
    expect((await uncommittedChanges(repo))?.sort()).toEqual(['src/index.js', 'src/new.js']);
  });

  it('is null for a plain folder, a subfolder of a checkout, a missing folder and a file', async () => {
    expect(await uncommittedChanges(await plainFolder())).toBeNull();
    const repo = await createRepo(PROJECT);
    await writeFiles(repo, { 'src/index.js': 'changed\n' });
    expect(await uncommittedChanges(join(repo, 'src'))).toBeNull();
    expect(await uncommittedChanges(join(repo, 'nope'))).toBeNull();
    expect(await uncommittedChanges(join(repo, 'package.json'))).toBeNull();
  });
});

describe('ensureProjectRepo: a plain folder', () => {
  it('is imported once into the state folder with one commit of its files', async () => {
    const project = await plainFolder({ ...PROJECT, 'node_modules/dep/index.js': 'dep', 'vendor/lib/.git/HEAD': 'ref: x', 'vendor/lib/a.txt': 'a' });
    const stateDir = await tempDir();
    const result = await ensureProjectRepo(project, stateDir);
    expect(result.imported).toBe(true);
    expect(result.repoDir.startsWith(join(stateDir, 'projects', 'demo-'))).toBe(true);
    expect(basename(result.repoDir)).toMatch(/^demo-[0-9a-f]{12}$/);
    expect(result.rev).toBe(await gitIn(result.repoDir, ['rev-parse', 'HEAD']));
    expect(await gitIn(result.repoDir, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect(await trackedFiles(result.repoDir)).toEqual(['package.json', 'scripts/build.sh', 'src/index.js', 'vendor/lib/a.txt']);
    expect(await gitIn(result.repoDir, ['ls-files', '-s', 'scripts/build.sh'])).toMatch(/^100755 /);
    expect(await readdir(join(stateDir, 'projects'))).toEqual([basename(result.repoDir)]);
  });

  it('is reused when its content is the same', async () => {
    const project = await plainFolder();
    const stateDir = await tempDir();
    const first = await ensureProjectRepo(project, stateDir);
    const madeAt = (await stat(join(first.repoDir, '.git'))).mtimeMs;
    const second = await ensureProjectRepo(project, stateDir);
    expect(second).toEqual(first);
    expect((await stat(join(first.repoDir, '.git'))).mtimeMs).toBe(madeAt);
    // A copy elsewhere with the same name and content maps to the same repository.
    const copy = await plainFolder();
    expect((await ensureProjectRepo(copy, stateDir)).repoDir).toBe(first.repoDir);
  });

  it('gets a new repository when a file changes, and ignores node_modules changes', async () => {
    const project = await plainFolder();
    const stateDir = await tempDir();
    const first = await ensureProjectRepo(project, stateDir);
    await writeFiles(project, { 'node_modules/dep/index.js': 'anything' });
    expect((await ensureProjectRepo(project, stateDir)).repoDir).toBe(first.repoDir);
    await writeFiles(project, { 'src/index.js': 'export const x = 2;\n' });
    const second = await ensureProjectRepo(project, stateDir);
    expect(second.repoDir).not.toBe(first.repoDir);
    expect(await gitIn(second.repoDir, ['show', 'HEAD:src/index.js'])).toBe('export const x = 2;');
    expect(await gitIn(first.repoDir, ['show', 'HEAD:src/index.js'])).toBe('export const x = 1;');
  });

  it('counts the executable bit as content', async () => {
    const project = await plainFolder();
    const stateDir = await tempDir();
    const first = await ensureProjectRepo(project, stateDir);
    await chmod(join(project, 'src/index.js'), 0o755);
    const second = await ensureProjectRepo(project, stateDir);
    expect(second.repoDir).not.toBe(first.repoDir);
    expect(await gitIn(second.repoDir, ['ls-files', '-s', 'src/index.js'])).toMatch(/^100755 /);
  });

  it('imports a folder that is inside another git repository on its own', async () => {
    const outer = await createRepo({ 'README.md': 'outer\n' });
    const project = await writeFiles(join(outer, 'demo'), PROJECT);
    const result = await ensureProjectRepo(project, await tempDir());
    expect(result.imported).toBe(true);
    expect(await trackedFiles(result.repoDir)).toEqual(['package.json', 'scripts/build.sh', 'src/index.js']);
  });

  it('imports a folder whose own path passes through node_modules', async () => {
    const parent = await tempDir();
    const project = await writeFiles(join(parent, 'node_modules', 'demo'), PROJECT);
    const result = await ensureProjectRepo(project, await tempDir());
    expect(await trackedFiles(result.repoDir)).toEqual(['package.json', 'scripts/build.sh', 'src/index.js']);
  });

  it('imports an empty folder as an empty commit', async () => {
    const project = join(await tempDir(), 'empty');
    await mkdir(project);
    const result = await ensureProjectRepo(project, await tempDir());
    expect(result.imported).toBe(true);
    expect(await trackedFiles(result.repoDir)).toEqual([]);
  });

  it('survives concurrent imports of the same folder', async () => {
    const files: Record<string, string> = { ...PROJECT };
    for (let i = 0; i < 200; i++) files[`data/file-${i}.txt`] = `content ${i}\n`.repeat(50);
    const project = await plainFolder(files);
    const stateDir = await tempDir();
    const results = await Promise.all([1, 2, 3].map(() => ensureProjectRepo(project, stateDir)));
    const [first] = results;
    for (const result of results) expect(result).toEqual(first);
    expect(await trackedFiles(first!.repoDir)).toEqual(Object.keys(files).sort());
    expect(await gitIn(first!.repoDir, ['status', '--porcelain'])).toBe('');
    await gitIn(first!.repoDir, ['fsck', '--no-progress']);
    expect(await readdir(join(stateDir, 'projects'))).toEqual([basename(first!.repoDir)]);
  });
});

describe('ensureProjectRepo: what a worktree gets', () => {
  it('an imported repository can check out every file', async () => {
    const project = await plainFolder();
    const result = await ensureProjectRepo(project, await tempDir());
    const out = join(await tempDir(), 'wt');
    await gitIn(result.repoDir, ['worktree', 'add', '-q', '--detach', out, result.rev]);
    expect(existsSync(join(out, 'src/index.js'))).toBe(true);
    await writeFile(join(out, 'new.txt'), 'x');
    expect(await gitIn(out, ['status', '--porcelain'])).toBe('?? new.txt');
  });
});
