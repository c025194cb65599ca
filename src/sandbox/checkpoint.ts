import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

/**
 * The state of the sandbox at the start of a candidate turn, so a retried turn can start from
 * exactly there. The snapshot's objects live in a git object directory of the run's own
 * (`<storeDir>/objects`, borrowing the sandbox's objects as alternates): not in the sandbox's
 * object store, where the candidate's `git` would see them, and never in the user's repository.
 *
 * These run on the host, outside any containment, on files the candidate wrote: so git works
 * from a git folder of evalflow's own (`<storeDir>/trusted.git`) with the sandbox as its work
 * tree, and never reads the sandbox's `.git/config`, where a candidate could name a filter,
 * an fsmonitor, a hook path or a signing program for git to run.
 */
export interface TurnCheckpoint {
  head: string;
  /** Commit whose tree is the working tree (tracked changes and untracked, non-ignored files). */
  snapshot: string;
}

export async function saveTurnCheckpoint(sandboxDir: string, storeDir: string): Promise<TurnCheckpoint> {
  const head = (await git(sandboxDir, ['--git-dir', join(sandboxDir, '.git'), 'rev-parse', 'HEAD'])).stdout.trim();
  // A private index, so the candidate's own staging area is left alone.
  const index = join(storeDir, `index-${process.pid}-${Date.now()}`);
  const env = { ...(await trustedGit(sandboxDir, storeDir)), GIT_INDEX_FILE: index };
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
  const env = { ...(await trustedGit(sandboxDir, storeDir)), GIT_INDEX_FILE: join(sandboxDir, '.git', 'index') };
  await git(sandboxDir, ['reset', '-q', '--hard', checkpoint.head], { env });
  await git(sandboxDir, ['clean', '-fdq'], { env });
  // -z: unquoted names, so paths with spaces, tabs or non-ASCII characters are deleted too.
  const deleted = (await git(sandboxDir, ['diff', '-z', '--name-only', '--no-renames', '--diff-filter=D', checkpoint.head, checkpoint.snapshot], { env })).stdout
    .split('\0')
    .filter(Boolean);
  await git(sandboxDir, ['checkout', checkpoint.snapshot, '--', '.'], { env, allowFail: true });
  for (const path of deleted) await rm(join(sandboxDir, path), { force: true });
  await git(sandboxDir, ['reset', '-q'], { env });
  // The sandbox's own HEAD (its branch, when it is on one) goes back too; no hook of its runs.
  await git(sandboxDir, ['--git-dir', join(sandboxDir, '.git'), '-c', 'core.hooksPath=/dev/null', 'update-ref', 'HEAD', checkpoint.head]);
}

/**
 * The environment that points git at evalflow's own git folder for this run (made once), with
 * the sandbox as work tree, the checkpoint objects (which borrow the sandbox's) and the
 * sandbox's exclude file (evalflow's placed workflow stays out of snapshots).
 */
async function trustedGit(sandboxDir: string, storeDir: string): Promise<Record<string, string>> {
  const trusted = join(storeDir, 'trusted.git');
  if (!existsSync(join(trusted, 'HEAD'))) {
    await mkdir(storeDir, { recursive: true });
    await git(storeDir, ['init', '-q', '--bare', trusted]);
  }
  const objects = join(storeDir, 'objects');
  await mkdir(join(objects, 'info'), { recursive: true });
  await writeFile(join(objects, 'info', 'alternates'), `${join(sandboxDir, '.git', 'objects')}\n`);
  await mkdir(join(trusted, 'info'), { recursive: true });
  const exclude = join(sandboxDir, '.git', 'info', 'exclude');
  if (existsSync(exclude)) await copyFile(exclude, join(trusted, 'info', 'exclude'));
  else await rm(join(trusted, 'info', 'exclude'), { force: true });
  return { GIT_DIR: trusted, GIT_WORK_TREE: sandboxDir, GIT_OBJECT_DIRECTORY: objects };
}
