import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileMemo } from '../../src/run/fileMemo.js';
import { readEnvChecklist, updateEnvChecklist, writeYamlFile } from '../../src/run/runFiles.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evf-memo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createFileMemo', () => {
  it('recalls a value while the file is unchanged, and a copy the caller cannot change it through', async () => {
    const memo = createFileMemo<{ n: number }>();
    const file = join(dir, 'a');
    await writeFile(file, 'one');
    memo.remember(file, { n: 1 });
    const first = memo.recall(file)!;
    expect(first).toEqual({ n: 1 });
    first.n = 9;
    expect(memo.recall(file)).toEqual({ n: 1 });
  });

  it('forgets it once the file is rewritten, replaced by a rename, or gone', async () => {
    const memo = createFileMemo<string>();
    const file = join(dir, 'a');
    await writeFile(file, 'one');
    memo.remember(file, 'one');
    await writeFile(file, 'two!');
    expect(memo.recall(file)).toBeUndefined();
    memo.remember(file, 'two');
    await writeFile(join(dir, 'b'), 'two!');
    await rename(join(dir, 'b'), file);
    expect(memo.recall(file)).toBeUndefined();
    memo.remember(file, 'three');
    await rm(file);
    expect(memo.recall(file)).toBeUndefined();
  });

  it('keeps at most its capacity, the oldest going first', async () => {
    const memo = createFileMemo<number>(2);
    for (const n of [1, 2, 3]) {
      await writeFile(join(dir, String(n)), String(n));
      memo.remember(join(dir, String(n)), n);
    }
    expect(memo.recall(join(dir, '1'))).toBeUndefined();
    expect(memo.recall(join(dir, '3'))).toBe(3);
  });
});

describe('readEnvChecklist with the memo', () => {
  const checklist = {
    workflow_rev: 'w',
    project_rev: 'a'.repeat(40),
    project_repo: '/r',
    candidate_cli_version: null,
    host: { id: 'h', hostname: 'h', platform: 'linux', node: 'v20', evalflow: 't' },
    setup_commands: [],
    preconditions: [],
    postconditions: [],
    workflow_placement: null,
    isolation: 'sandbox' as const,
  };

  it('reads what another writer put there after this process wrote it', async () => {
    await updateEnvChecklist(dir, {}, checklist);
    expect((await readEnvChecklist(dir))?.project_repo).toBe('/r');
    // Another process (or a hand) replaces the file: what it wrote is read, not what this process remembers.
    await writeYamlFile(join(dir, 'env_checklist.yaml'), { ...checklist, project_repo: '/other' });
    expect((await readEnvChecklist(dir))?.project_repo).toBe('/other');
    const stats = await stat(join(dir, 'env_checklist.yaml'));
    expect(stats.size).toBeGreaterThan(0);
  });

  it('reads its own update back, and a changed copy does not leak into the next read', async () => {
    await updateEnvChecklist(dir, {}, checklist);
    await updateEnvChecklist(dir, { workflow_rev: 'x' });
    const read = (await readEnvChecklist(dir))!;
    expect(read.workflow_rev).toBe('x');
    read.workflow_rev = 'mutated';
    expect((await readEnvChecklist(dir))!.workflow_rev).toBe('x');
  });
});
