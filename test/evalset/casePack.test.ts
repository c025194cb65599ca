import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { casePackDir, casePackHash, MAX_CASE_PACK_BYTES, packCase, unpackCase } from '../../src/evalset/index.js';
import { FormatError } from '../../src/errors.js';
import { tempDir, writeFiles } from '../sandbox/sandboxFixture.js';
import { greetingCase } from '../support/greetingCase.js';

async function caseFolder(files: Record<string, string> = {}): Promise<string> {
  const dir = join(await tempDir('evalflow-pack-'), 'greet');
  await writeFiles(dir, { ...greetingCase('greet'), 'fixtures/input.txt': 'data\n', 'scripts/check.sh': '#!/bin/sh\nexit 0\n', ...files });
  await chmod(join(dir, 'scripts/check.sh'), 0o755);
  return dir;
}

describe('case packs', () => {
  it('carries every file of the case folder, its executable bit too, and writes it out elsewhere as it was', async () => {
    const dir = await caseFolder({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const pack = await packCase(dir);
    expect(pack.caseId).toBe('greet');
    // The repository inside the folder is history, not what the case runs from.
    expect(pack.files.map((f) => f.path)).toEqual(['env.yaml', 'fixtures/input.txt', 'meta.yaml', 'rubric.md', 'scripts/check.sh', 'task.md']);
    const hash = casePackHash(pack);
    const root = await tempDir('evalflow-unpack-');
    // As the store hands it back: plain JSON.
    const written = await unpackCase(JSON.parse(JSON.stringify(pack)), hash, root);
    expect(written).toBe(casePackDir(root, hash, 'greet'));
    expect(await readFile(join(written, 'fixtures/input.txt'), 'utf8')).toBe('data\n');
    expect(await readFile(join(written, 'task.md'), 'utf8')).toBe(greetingCase('greet')['task.md']);
    expect((await stat(join(written, 'scripts/check.sh'))).mode & 0o111).not.toBe(0);
    expect((await stat(join(written, 'task.md'))).mode & 0o111).toBe(0);
    // A second write-out finds the first.
    expect(await unpackCase(pack, hash, root)).toBe(written);
  });

  it('hashes content, not where the folder is: a changed fixture changes the hash, a moved folder does not', async () => {
    const a = casePackHash(await packCase(await caseFolder()));
    expect(casePackHash(await packCase(await caseFolder()))).toBe(a);
    expect(casePackHash(await packCase(await caseFolder({ 'fixtures/input.txt': 'other\n' })))).not.toBe(a);
  });

  it('refuses a pack whose content does not match its hash, and one that would write outside its folder', async () => {
    const pack = await packCase(await caseFolder());
    const hash = casePackHash(pack);
    const root = await tempDir('evalflow-unpack-');
    const damaged = { ...pack, files: pack.files.map((f) => (f.path === 'task.md' ? { ...f, content: Buffer.from('changed').toString('base64') } : f)) };
    await expect(unpackCase(damaged, hash, root)).rejects.toThrow(/case pack sha256:[0-9a-f]+: its content hashes to sha256:/);
    const escaping = { ...pack, files: [{ path: '../outside.txt', executable: false, content: '' }] };
    await expect(unpackCase(escaping, casePackHash(escaping), root)).rejects.toThrow(/files\.0\.path: expected a relative path inside the case folder/);
  });

  it('refuses a case folder over the size bound, naming the folder', async () => {
    const dir = await caseFolder();
    await writeFile(join(dir, 'big.bin'), Buffer.alloc(MAX_CASE_PACK_BYTES + 1));
    const failure = packCase(dir);
    await expect(failure).rejects.toBeInstanceOf(FormatError);
    await expect(failure).rejects.toThrow(`eval case ${dir}: its files hold more than 4 MB`);
  });
});
