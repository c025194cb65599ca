import { readlink, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreFolderCheckpoint, saveFolderCheckpoint } from '../../src/sandbox/folderCheckpoint.js';
import { readTree, tempDir, writeFiles } from './sandboxFixture.js';

describe('folder checkpoints (the agent home)', () => {
  it('put a folder back as it was saved: a failed attempt\'s sessions and settings are gone', async () => {
    const root = await tempDir();
    const home = await writeFiles(join(root, 'home'), { '.claude/settings.json': '{"a":1}', '.claude/projects/s-1.jsonl': 'turn 1\n' });
    await symlink('/nonexistent/target', join(home, 'link'));
    await saveFolderCheckpoint(home, join(root, 'turn-2/home'));
    await writeFiles(home, { '.claude/projects/s-1.jsonl': 'turn 1\nturn 2 of the failed attempt\n', '.claude/projects/s-2.jsonl': 'another session' });
    await rm(join(home, '.claude/settings.json'));
    await restoreFolderCheckpoint(home, join(root, 'turn-2/home'));
    expect(await readTree(home, [])).toMatchObject({ '.claude/settings.json': '{"a":1}', '.claude/projects/s-1.jsonl': 'turn 1\n' });
    expect(await readTree(home, [])).not.toHaveProperty('.claude/projects/s-2.jsonl');
    expect(await readlink(join(home, 'link'))).toBe('/nonexistent/target');
  });

  it('saves a home that does not exist yet as an empty folder', async () => {
    const root = await tempDir();
    await saveFolderCheckpoint(join(root, 'home'), join(root, 'copy'));
    await writeFiles(join(root, 'home'), { 'x.txt': 'from the attempt' });
    await restoreFolderCheckpoint(join(root, 'home'), join(root, 'copy'));
    expect(await readTree(join(root, 'home'))).toEqual({});
  });
});
