import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run } from '../../src/commands/new.js';
import { run as validate } from '../../src/commands/validate.js';
import { writeTree } from '../evalset/caseFixture.js';

describe('evalflow new', () => {
  it('scaffolds a case in eval_sets that passes validate, printing the created paths', async () => {
    const root = await writeTree({});
    const io = memoryIo(root);
    expect(await run({ id: 'fix-login' }, io)).toBe(0);
    expect(io.stdout).toEqual([
      'created eval_sets/fix-login/meta.yaml',
      'created eval_sets/fix-login/task.md',
      'created eval_sets/fix-login/rubric.md',
      'created eval_sets/fix-login/env.yaml',
      'next: replace the TODO text, then run `evalflow validate eval_sets/fix-login`',
    ]);
    expect((await readdir(path.join(root, 'eval_sets', 'fix-login'))).sort()).toEqual(['env.yaml', 'meta.yaml', 'rubric.md', 'task.md']);
    expect(await readFile(path.join(root, 'eval_sets', 'fix-login', 'meta.yaml'), 'utf8')).toContain('id: fix-login\n');

    const checked = memoryIo(root);
    expect(await validate({}, checked)).toBe(0);
    expect(checked.stdout).toEqual(['1 eval case checked: 1 valid']);
  });

  it('creates the case under --dir, making the bank folder if needed', async () => {
    const root = await writeTree({});
    const io = memoryIo(root);
    expect(await run({ id: 'a.b_c', dir: 'banks/nightly' }, io)).toBe(0);
    expect(io.stdout[0]).toBe('created banks/nightly/a.b_c/meta.yaml');
    expect(await validate({ paths: ['banks/nightly'] }, memoryIo(root))).toBe(0);
  });

  it.each(['-starts-with-dash', 'has space', 'slash/inside', ''])('refuses the invalid id %j', async (id) => {
    const root = await writeTree({});
    const io = memoryIo(root);
    expect(await run({ id }, io)).toBe(1);
    expect(io.stderr).toEqual([
      `evalflow new: invalid eval case id ${JSON.stringify(id)}; expected letters, digits, ".", "_" or "-", starting with a letter or digit`,
    ]);
    expect(io.stdout).toEqual([]);
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses an existing folder and leaves it untouched', async () => {
    const root = await writeTree({ 'eval_sets/taken/notes.md': 'mine' });
    const io = memoryIo(root);
    expect(await run({ id: 'taken' }, io)).toBe(1);
    expect(io.stderr).toEqual(['evalflow new: eval_sets/taken already exists; choose another id or remove that folder first']);
    expect(await readdir(path.join(root, 'eval_sets', 'taken'))).toEqual(['notes.md']);
  });
});
