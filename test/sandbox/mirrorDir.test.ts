import { existsSync } from 'node:fs';
import { link, lstat, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mirrorDir, mirrorFile } from '../../src/sandbox/mirrorDir.js';
import { readTree, tempDir, writeFiles } from './sandboxFixture.js';

describe('mirrorDir', () => {
  it('makes the target hold exactly the source, writing only what differs and keeping what it is told to', async () => {
    const source = await writeFiles(await tempDir(), { HEAD: 'ref\n', 'refs/heads/main': 'abc\n', 'hooks/pre-commit.sample': 'sample\n' });
    const target = await writeFiles(await tempDir(), { HEAD: 'ref\n', 'refs/heads/main': 'changed\n', 'refs/stash': 'x\n', 'objects/ab/cdef': 'blob\n', index: 'kept\n' });
    const untouched = (await stat(join(target, 'HEAD'))).ino;
    await mirrorDir(source, target, ['index']);
    expect(await readTree(target)).toEqual({ ...(await readTree(source)), index: 'kept\n' });
    expect((await stat(join(target, 'HEAD'))).ino).toBe(untouched);
  });

  it('replaces symlinks and hard-linked files instead of writing through them, and restores modes', async () => {
    const source = await writeFiles(await tempDir(), { config: '[core]\n', 'refs/heads/main': 'abc\n', 'hooks/x.sample': 'sample\n' });
    const outside = await writeFiles(await tempDir(), { 'heads/main': 'outside\n', config: 'outside config\n' });
    const target = await tempDir();
    await symlink(outside, join(target, 'refs'));
    await link(join(outside, 'config'), join(target, 'config'));
    await mkdir(join(target, 'hooks'));
    await writeFile(join(target, 'hooks', 'x.sample'), 'sample\n', { mode: 0o755 });
    await mirrorDir(source, target);
    expect((await lstat(join(target, 'refs'))).isDirectory()).toBe(true);
    expect(await readFile(join(outside, 'heads/main'), 'utf8')).toBe('outside\n');
    expect(await readFile(join(outside, 'config'), 'utf8')).toBe('outside config\n');
    expect((await stat(join(target, 'config'))).nlink).toBe(1);
    expect((await stat(join(target, 'hooks', 'x.sample'))).mode & 0o777).toBe((await stat(join(source, 'hooks', 'x.sample'))).mode & 0o777);
    expect(await readTree(target)).toEqual(await readTree(source));
  });

  it('mirrorFile writes a plain copy, through no symlink', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'base'), 'base index\n');
    await writeFile(join(dir, 'elsewhere'), 'not to be touched\n');
    await symlink(join(dir, 'elsewhere'), join(dir, 'index'));
    await mirrorFile(join(dir, 'base'), join(dir, 'index'));
    expect((await lstat(join(dir, 'index'))).isFile()).toBe(true);
    expect(await readFile(join(dir, 'index'), 'utf8')).toBe('base index\n');
    expect(await readFile(join(dir, 'elsewhere'), 'utf8')).toBe('not to be touched\n');
    expect(existsSync(join(dir, 'base'))).toBe(true);
  });
});
