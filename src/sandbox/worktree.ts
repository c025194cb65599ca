import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git } from './git.js';

/**
 * Adds a detached worktree of `repoDir` at `rev` as the run's sandbox. Idempotent: a retried
 * prepare finds the worktree already there and keeps it (untracked files included).
 */
export async function createWorktree(repoDir: string, sandboxDir: string, rev: string): Promise<void> {
  if (existsSync(join(sandboxDir, '.git'))) {
    const head = await git(sandboxDir, ['rev-parse', 'HEAD'], { allowFail: true });
    if (head.exitCode === 0) {
      // `worktree add` sets HEAD before it checks files out: a crash in between leaves a worktree
      // with few or no files. Nothing has run in it yet (prepare precedes setup), so complete it.
      await git(sandboxDir, ['reset', '-q', '--hard', rev]);
      return;
    }
  }
  await rm(sandboxDir, { recursive: true, force: true });
  await git(repoDir, ['worktree', 'prune']);
  await mkdir(dirname(sandboxDir), { recursive: true });
  await git(repoDir, ['worktree', 'add', '--detach', '--force', sandboxDir, rev]);
}

/**
 * Hides what evalflow places in the sandbox from git (status, diff, clean) in this worktree
 * only, through a per-worktree excludes file; the user's own checkout is not affected.
 */
export async function hideFromGit(sandboxDir: string, excludesFile: string, patterns: string[]): Promise<void> {
  await mkdir(dirname(excludesFile), { recursive: true });
  await writeFile(excludesFile, `${patterns.map((p) => `/${p.replace(/^\/+/, '')}`).join('\n')}\n`);
  await git(sandboxDir, ['config', 'extensions.worktreeConfig', 'true']);
  await git(sandboxDir, ['config', '--worktree', 'core.excludesFile', excludesFile]);
}

/**
 * Removes the sandbox: `git worktree remove --force`, falling back to deleting the folder and
 * pruning, so cleanup succeeds even when git refuses (locked, half-created worktrees).
 */
export async function removeWorktree(repoDir: string, sandboxDir: string): Promise<'removed' | 'deleted' | 'absent'> {
  if (!existsSync(sandboxDir)) {
    if (existsSync(repoDir)) await git(repoDir, ['worktree', 'prune'], { allowFail: true });
    return 'absent';
  }
  const removed = existsSync(repoDir) ? await git(repoDir, ['worktree', 'remove', '--force', '--force', sandboxDir], { allowFail: true }) : { exitCode: 1 };
  if (removed.exitCode === 0 && !existsSync(sandboxDir)) return 'removed';
  await rm(sandboxDir, { recursive: true, force: true });
  if (existsSync(repoDir)) await git(repoDir, ['worktree', 'prune'], { allowFail: true });
  return 'deleted';
}
