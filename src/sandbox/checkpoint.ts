import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

/**
 * The state of the sandbox at the start of a candidate turn, kept as a commit object under
 * `refs/evalflow/...` (never on a branch), so a retried turn can start from exactly there.
 */
export interface TurnCheckpoint {
  head: string;
  /** Commit whose tree is the working tree (tracked changes and untracked, non-ignored files). */
  snapshot: string;
}

export async function saveTurnCheckpoint(sandboxDir: string, ref: string, tmpDir: string): Promise<TurnCheckpoint> {
  const head = (await git(sandboxDir, ['rev-parse', 'HEAD'])).stdout.trim();
  // A private index, so the candidate's own staging area is left alone.
  const index = join(tmpDir, `checkpoint-index-${process.pid}-${Date.now()}`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git(sandboxDir, ['read-tree', head], { env });
    await git(sandboxDir, ['add', '-A', '--', '.'], { env });
    const tree = (await git(sandboxDir, ['write-tree'], { env })).stdout.trim();
    const snapshot = (await git(sandboxDir, ['commit-tree', tree, '-p', head, '-m', `evalflow checkpoint ${ref}`])).stdout.trim();
    await git(sandboxDir, ['update-ref', ref, snapshot]);
    return { head, snapshot };
  } finally {
    await rm(index, { force: true });
  }
}

/** Puts HEAD, index and working tree back to the checkpoint; ignored files are left alone. */
export async function restoreTurnCheckpoint(sandboxDir: string, checkpoint: TurnCheckpoint): Promise<void> {
  await git(sandboxDir, ['reset', '-q', '--hard', checkpoint.head]);
  await git(sandboxDir, ['clean', '-fdq']);
  // -z: unquoted names, so paths with spaces, tabs or non-ASCII characters are deleted too.
  const deleted = (await git(sandboxDir, ['diff', '-z', '--name-only', '--no-renames', '--diff-filter=D', checkpoint.head, checkpoint.snapshot])).stdout
    .split('\0')
    .filter(Boolean);
  await git(sandboxDir, ['checkout', checkpoint.snapshot, '--', '.'], { allowFail: true });
  for (const path of deleted) await rm(join(sandboxDir, path), { force: true });
  await git(sandboxDir, ['reset', '-q']);
}

/**
 * Deletes every checkpoint ref under `prefix` (e.g. `refs/evalflow/<run>`). Refs live in the
 * project repository shared by all worktrees, so without this each run would keep its turns'
 * snapshot commits (and every file the candidate wrote) reachable there forever. Safe to repeat.
 */
export async function dropTurnCheckpoints(repoDir: string, prefix: string): Promise<number> {
  const listed = await git(repoDir, ['for-each-ref', '--format=%(refname)', `${prefix}/`], { allowFail: true });
  if (listed.exitCode !== 0) return 0;
  const refs = listed.stdout.split('\n').filter(Boolean);
  if (refs.length > 0) await git(repoDir, ['update-ref', '--stdin'], { input: refs.map((ref) => `delete ${ref}\n`).join('') });
  return refs.length;
}
