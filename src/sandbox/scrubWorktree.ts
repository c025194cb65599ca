import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

/**
 * Stat checks as strict as git has them, whatever the user's global config says: a changed
 * file must never look unchanged.
 */
const STRICT_STAT = ['-c', 'core.checkStat=default', '-c', 'core.trustctime=true', '-c', 'core.ignoreStat=false', '-c', 'core.fsmonitor=false'];

/**
 * Puts a sandbox's files back to what its index says: every file and folder the index lacks
 * (untracked or ignored, nested repositories too) is removed, and files changed or deleted are
 * checked out again. The same end as `git clean -ffdx` plus `git reset --hard` for an index
 * that matches the commit, in one look at the tree (two `git ls-files` side by side), writing
 * only where something differs. Trusts the index's file stats, so `.git` must hold the index
 * the files were made with and config the run never touched.
 */
export async function scrubWorktree(sandboxDir: string): Promise<void> {
  const [changed, others] = await Promise.all([listChanged(sandboxDir), git(sandboxDir, [...STRICT_STAT, 'ls-files', '-z', '--others', '--directory'])]);
  const extra = others.stdout.split('\0').filter(Boolean).map((path) => join(sandboxDir, path.replace(/\/$/, '')));
  // A symlink may stand where the index has a folder: stats taken through it can miss changes
  // below, so once it is gone the changed files are listed again.
  const linked = (await Promise.all(extra.map((path) => lstat(path)))).some((kind) => kind.isSymbolicLink());
  await Promise.all(extra.map((path) => rm(path, { recursive: true, force: true })));
  const stale = linked ? await listChanged(sandboxDir) : changed;
  if (stale.length > 0) await git(sandboxDir, ['checkout-index', '-f', '-u', '-z', '--stdin'], { input: `${stale.join('\0')}\0` });
}

async function listChanged(sandboxDir: string): Promise<string[]> {
  const listed = await git(sandboxDir, [...STRICT_STAT, 'ls-files', '-z', '--modified', '--deleted']);
  return [...new Set(listed.stdout.split('\0').filter(Boolean))];
}
