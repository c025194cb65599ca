import { chmod, link, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { checkProtectedPathsExist, restoreProtected, type ProtectedSource } from '../../src/sandbox/restoreProtected.js';
import { createRepo, gitIn, readTree, tempDir, writeFiles } from './sandboxFixture.js';

const FILES = {
  'src/slug.js': 'export const slug = 1;\n',
  'test/slug.test.js': 'assert slug works\n',
  'test/fixtures/a.txt': 'fixture a\n',
  'test/fixtures/deep/b.txt': 'fixture b\n',
  'bin/check.sh': '#!/bin/sh\nexit 0\n',
};

describe('restoreProtected', () => {
  let source: ProtectedSource;
  let sandbox: string;
  let outside: string;

  beforeEach(async () => {
    const repoDir = await createRepo(FILES);
    source = { repoDir, rev: await gitIn(repoDir, ['rev-parse', 'HEAD']) };
    sandbox = join(await tempDir(), 'sandbox');
    await gitIn(repoDir, ['clone', '-q', repoDir, sandbox]);
    outside = await writeFiles(await tempDir('evalflow-outside-'), { 'a.txt': 'outside a\n', 'slug.test.js': 'outside test\n' });
  });

  const restore = (paths: string[]) => restoreProtected(sandbox, source, paths);

  it('leaves an untouched sandbox as it is and reports nothing', async () => {
    expect(await restore(['test/slug.test.js', 'test/fixtures/', 'bin/check.sh'])).toEqual([]);
    expect(await readTree(sandbox)).toEqual(FILES);
  });

  it('puts back a changed file, a deleted file and removes files added inside a protected folder', async () => {
    await writeFile(join(sandbox, 'test/slug.test.js'), 'assert true\n');
    await rm(join(sandbox, 'test/fixtures/deep/b.txt'));
    await writeFiles(sandbox, { 'test/fixtures/new.txt': 'added\n', 'test/fixtures/more/c.txt': 'added\n', 'test/other.test.js': 'not protected\n' });
    await writeFile(join(sandbox, 'src/slug.js'), 'the candidate\'s fix\n');

    expect(await restore(['test/slug.test.js', 'test/fixtures/'])).toEqual([
      { path: 'test/slug.test.js', change: 'changed' },
      { path: 'test/fixtures/deep/b.txt', change: 'deleted' },
      { path: 'test/fixtures/more/', change: 'added' },
      { path: 'test/fixtures/new.txt', change: 'added' },
    ]);
    // Only protected paths are restored: the candidate's other work stays.
    expect(await readTree(sandbox)).toEqual({ ...FILES, 'src/slug.js': "the candidate's fix\n", 'test/other.test.js': 'not protected\n' });
  });

  it('restores a deleted protected folder whole and reports it once', async () => {
    await rm(join(sandbox, 'test/fixtures'), { recursive: true });
    expect(await restore(['test/fixtures'])).toEqual([{ path: 'test/fixtures/', change: 'deleted' }]);
    expect(await readTree(sandbox)).toEqual(FILES);
  });

  it('puts back the executable bit, either way', async () => {
    await chmod(join(sandbox, 'bin/check.sh'), 0o644);
    await chmod(join(sandbox, 'test/slug.test.js'), 0o755);
    expect(await restore(['bin/check.sh', 'test/slug.test.js'])).toEqual([
      { path: 'bin/check.sh', change: 'changed' },
      { path: 'test/slug.test.js', change: 'changed' },
    ]);
    expect((await stat(join(sandbox, 'bin/check.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(sandbox, 'test/slug.test.js'))).mode & 0o777).toBe(0o644);
  });

  it('replaces a symlinked protected folder pointing outside with the real folder, leaving the outside untouched', async () => {
    await rm(join(sandbox, 'test/fixtures'), { recursive: true });
    await symlink(outside, join(sandbox, 'test/fixtures'));
    expect(await restore(['test/fixtures/'])).toEqual([{ path: 'test/fixtures/', change: 'changed' }]);
    expect((await lstat(join(sandbox, 'test/fixtures'))).isDirectory()).toBe(true);
    expect(await readTree(sandbox)).toEqual(FILES);
    expect(await readTree(outside)).toEqual({ 'a.txt': 'outside a\n', 'slug.test.js': 'outside test\n' });
  });

  it('replaces a symlinked parent of a protected file, and a protected file that is a link or a hard link to outside', async () => {
    await rm(join(sandbox, 'test'), { recursive: true });
    await symlink(outside, join(sandbox, 'test'));
    await rm(join(sandbox, 'src/slug.js'));
    await symlink(join(outside, 'a.txt'), join(sandbox, 'src/slug.js'));
    await rm(join(sandbox, 'bin/check.sh'));
    await link(join(outside, 'slug.test.js'), join(sandbox, 'bin/check.sh'));

    expect(await restore(['test/slug.test.js', 'src/slug.js', 'bin/check.sh'])).toEqual([
      { path: 'test/', change: 'changed' },
      { path: 'test/slug.test.js', change: 'deleted' },
      { path: 'src/slug.js', change: 'changed' },
      { path: 'bin/check.sh', change: 'changed' },
    ]);
    expect(await readFile(join(sandbox, 'test/slug.test.js'), 'utf8')).toBe(FILES['test/slug.test.js']);
    expect((await lstat(join(sandbox, 'src/slug.js'))).isSymbolicLink()).toBe(false);
    expect(await readFile(join(sandbox, 'bin/check.sh'), 'utf8')).toBe(FILES['bin/check.sh']);
    expect(await readTree(outside)).toEqual({ 'a.txt': 'outside a\n', 'slug.test.js': 'outside test\n' });
  });

  it('replaces a protected file turned into a folder, and restores a symlink the project itself has', async () => {
    const repoDir = await createRepo({ 'test/x.js': 'x\n' });
    await symlink('x.js', join(repoDir, 'test/alias.js'));
    await gitIn(repoDir, ['add', '-A']);
    await gitIn(repoDir, ['commit', '-q', '-m', 'alias']);
    const clone = join(await tempDir(), 'sandbox');
    await gitIn(repoDir, ['clone', '-q', repoDir, clone]);
    await rm(join(clone, 'test/alias.js'));
    await symlink(join(outside, 'a.txt'), join(clone, 'test/alias.js'));
    await rm(join(clone, 'test/x.js'));
    await mkdir(join(clone, 'test/x.js'));
    await writeFile(join(clone, 'test/x.js/inner'), 'inner\n');

    const rev = await gitIn(repoDir, ['rev-parse', 'HEAD']);
    expect(await restoreProtected(clone, { repoDir, rev }, ['test/'])).toEqual([
      { path: 'test/alias.js', change: 'changed' },
      { path: 'test/x.js', change: 'changed' },
    ]);
    expect(await readlink(join(clone, 'test/alias.js'))).toBe('x.js');
    expect(await readFile(join(clone, 'test/x.js'), 'utf8')).toBe('x\n');
  });

  it('removes what the candidate created at a protected path the revision lacks, never through a link', async () => {
    await writeFiles(sandbox, { 'test/generated/out.txt': 'made\n' });
    await symlink(outside, join(sandbox, 'linked'));
    expect(await restore(['test/generated/', 'linked/a.txt', 'nothing/here.txt'])).toEqual([
      { path: 'test/generated/', change: 'added' },
      { path: 'linked', change: 'added' },
    ]);
    expect(await readTree(sandbox)).toEqual(FILES);
    expect(await readTree(outside)).toEqual({ 'a.txt': 'outside a\n', 'slug.test.js': 'outside test\n' });
  });

  it('reads the revision from the host repository, not from the sandbox .git the candidate controls', async () => {
    await writeFile(join(sandbox, 'test/slug.test.js'), 'assert true\n');
    // The candidate commits its change and rewrites the sandbox's history to match.
    await gitIn(sandbox, ['commit', '-q', '-am', 'rewrite']);
    await gitIn(sandbox, ['tag', '-f', 'base']);
    expect(await restore(['test/slug.test.js'])).toEqual([{ path: 'test/slug.test.js', change: 'changed' }]);
    expect(await readFile(join(sandbox, 'test/slug.test.js'), 'utf8')).toBe(FILES['test/slug.test.js']);
  });

  it('reads the commit\'s own objects, not what a replace ref in the host repository says', async () => {
    const original = await gitIn(source.repoDir, ['rev-parse', `${source.rev}:test/slug.test.js`]);
    await writeFile(join(source.repoDir, 'forged.txt'), 'assert true\n');
    const forged = await gitIn(source.repoDir, ['hash-object', '-w', 'forged.txt']);
    await gitIn(source.repoDir, ['replace', original, forged]);
    await writeFile(join(sandbox, 'test/slug.test.js'), 'assert true\n');
    expect(await restore(['test/slug.test.js'])).toEqual([{ path: 'test/slug.test.js', change: 'changed' }]);
    expect(await readFile(join(sandbox, 'test/slug.test.js'), 'utf8')).toBe(FILES['test/slug.test.js']);
  });
});

describe('checkProtectedPathsExist', () => {
  it('accepts files and folders of the revision and names env.yaml and the field for any other', async () => {
    const repoDir = await createRepo(FILES);
    const source = { repoDir, rev: await gitIn(repoDir, ['rev-parse', 'HEAD']) };
    await expect(checkProtectedPathsExist(source, ['test/slug.test.js', 'test/fixtures/', 'test'], 'case/env.yaml')).resolves.toBeUndefined();
    const failure = await checkProtectedPathsExist(source, ['test/slug.test.js', 'test/missing.js', 'test/slug.test.js/', 'test/fix'], 'case/env.yaml').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(FormatError);
    const at = `the project at ${source.rev.slice(0, 12)}`;
    expect((failure as FormatError).problems).toEqual([
      `case/env.yaml: protected.1: test/missing.js is not in ${at}; expected a file or folder it has`,
      `case/env.yaml: protected.2: test/slug.test.js/ is a file in ${at}, not a folder; expected it without the trailing /`,
      `case/env.yaml: protected.3: test/fix is not in ${at}; expected a file or folder it has`,
    ]);
  });
});
