import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../src/packageRoot.js';

const ROOT = resolve(import.meta.dirname, '..');

describe('packageRoot', () => {
  it('is the repository from src/', () => {
    expect(packageRoot()).toBe(ROOT);
  });

  it('is the same from a module as deep as a bundled chunk (dist/cli/chunks/)', () => {
    expect(packageRoot(pathToFileURL(join(ROOT, 'dist/cli/chunks/chunk-X.js')).href)).toBe(ROOT);
  });

  it('is the nearest folder with a package.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-root-'));
    try {
      await mkdir(join(dir, 'pkg/a/b'), { recursive: true });
      await writeFile(join(dir, 'pkg/package.json'), '{}');
      expect(packageRoot(pathToFileURL(join(dir, 'pkg/a/b/c.js')).href)).toBe(join(dir, 'pkg'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
