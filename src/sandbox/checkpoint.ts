import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

/**
 * The state of the sandbox at the start of a candidate turn, so a retried turn can start from
 * exactly there. The snapshot's objects live in a git object directory of the run's own
 * (`<storeDir>/objects`, borrowing the sandbox's objects as alternates): not in the sandbox's
 * object store, where the candidate's `git` would see them, and never in the user's repository.
 */
export interface TurnCheckpoint {
  head: string;
  /** Commit whose tree is the working tree (tracked changes and untracked, non-ignored files). */
  snapshot: string;
}

export async function saveTurnCheckpoint(sandboxDir: string, storeDir: string): Promise<TurnCheckpoint> {
  const head = (await git(sandboxDir, ['rev-parse', 'HEAD'])).stdout.trim();
  const objects = await checkpointObjects(sandboxDir, storeDir);
  // A private index, so the candidate's own staging area is left alone.
  const index = join(storeDir, `index-${process.pid}-${Date.now()}`);
  const env = { GIT_INDEX_FILE: index, GIT_OBJECT_DIRECTORY: objects };
  try {
    await git(sandboxDir, ['read-tree', head], { env });
    await git(sandboxDir, ['add', '-A', '--', '.'], { env });
    const tree = (await git(sandboxDir, ['write-tree'], { env })).stdout.trim();
    const snapshot = (await git(sandboxDir, ['commit-tree', tree, '-p', head, '-m', 'evalflow turn checkpoint'], { env })).stdout.trim();
    return { head, snapshot };
  } finally {
    await rm(index, { force: true });
  }
}

/** Puts HEAD, index and working tree back to the checkpoint; ignored files are left alone. */
export async function restoreTurnCheckpoint(sandboxDir: string, storeDir: string, checkpoint: TurnCheckpoint): Promise<void> {
  const env = { GIT_OBJECT_DIRECTORY: await checkpointObjects(sandboxDir, storeDir) };
  await git(sandboxDir, ['reset', '-q', '--hard', checkpoint.head]);
  await git(sandboxDir, ['clean', '-fdq']);
  // -z: unquoted names, so paths with spaces, tabs or non-ASCII characters are deleted too.
  const deleted = (await git(sandboxDir, ['diff', '-z', '--name-only', '--no-renames', '--diff-filter=D', checkpoint.head, checkpoint.snapshot], { env })).stdout
    .split('\0')
    .filter(Boolean);
  await git(sandboxDir, ['checkout', checkpoint.snapshot, '--', '.'], { env, allowFail: true });
  for (const path of deleted) await rm(join(sandboxDir, path), { force: true });
  await git(sandboxDir, ['reset', '-q']);
}

/** The checkpoint object directory, reading the sandbox's own objects (and through them the project's). */
async function checkpointObjects(sandboxDir: string, storeDir: string): Promise<string> {
  const objects = join(storeDir, 'objects');
  const sandboxObjects = (await git(sandboxDir, ['rev-parse', '--path-format=absolute', '--git-path', 'objects'])).stdout.trim();
  await mkdir(join(objects, 'info'), { recursive: true });
  await writeFile(join(objects, 'info', 'alternates'), `${sandboxObjects}\n`);
  return objects;
}
