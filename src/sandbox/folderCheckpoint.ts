import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A copy of a folder (the agent's private HOME with its session store and settings) kept with
 * a turn's sandbox checkpoint, so a resumed conversation matches the files it talks about.
 * Symlinks are copied as links, not followed.
 */
export async function saveFolderCheckpoint(folder: string, copy: string): Promise<void> {
  const partial = `${copy}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(dirname(copy), { recursive: true });
  if (existsSync(folder)) await cp(folder, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  else await mkdir(partial, { recursive: true });
  await rm(copy, { recursive: true, force: true });
  await rename(partial, copy);
}

/** Puts the folder back as it was saved: what a failed attempt added or changed is gone. */
export async function restoreFolderCheckpoint(folder: string, copy: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
  await cp(copy, folder, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
}
