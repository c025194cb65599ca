import { existsSync } from 'node:fs';
import { mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, SandboxError } from '../../errors.js';
import { runGit, tryGit } from './git.js';
import type { RepositoryLocation } from './repositoryLocation.js';

export interface WorktreeOptions {
  /** Root of the cache: clones in `repos/<owner>/<repo>`, worktrees in `worktrees/<owner>/<repo>`. */
  cacheDir: string;
  /**
   * Allow `git clone`/`git fetch` of remote (https, ssh) repositories. Off by default:
   * evalflow then never reaches the network and asks the user to pre-clone instead.
   */
  fetchRemote?: boolean;
}

export interface PreparedWorktree {
  cloneDir: string;
  worktree: string;
  /** The full commit sha `revision` resolved to. */
  commit: string;
}

/**
 * Check out `revision` in the repository's worktree: a clone per
 * `owner/repo` under the cache (a local source is cloned from its path, never touched
 * itself), one worktree per repository reset and cleaned on reuse. Callers must not prepare
 * two examples of the same repository at once (they share the worktree), as in Zed.
 */
export async function prepareWorktree(location: RepositoryLocation, revision: string, options: WorktreeOptions): Promise<PreparedWorktree> {
  const cloneDir = path.join(options.cacheDir, 'repos', location.owner, location.name);
  const worktree = path.join(options.cacheDir, 'worktrees', location.owner, location.name);
  await ensureClone(location, cloneDir, options);
  const commit = await resolveRevision(location, cloneDir, revision, options);

  await tryGit(cloneDir, ['worktree', 'prune']);
  if (await isOwnCheckout(worktree)) {
    await runGit(worktree, ['clean', '--force', '-d']);
    await runGit(worktree, ['reset', '--hard', '--quiet', 'HEAD']);
    await runGit(worktree, ['checkout', '--quiet', '--detach', commit]);
  } else {
    await rm(worktree, { recursive: true, force: true });
    await mkdir(path.dirname(worktree), { recursive: true });
    await tryGit(cloneDir, ['worktree', 'prune']);
    await runGit(cloneDir, ['worktree', 'add', '--force', '--detach', worktree, commit]);
  }
  return { cloneDir, worktree, commit };
}

async function ensureClone(location: RepositoryLocation, cloneDir: string, options: WorktreeOptions): Promise<void> {
  const source = location.kind === 'local' ? location.path : location.url;
  if (await isOwnCheckout(cloneDir)) {
    // A clone of a local path is ours to replace when it points elsewhere (as Zed wipes a
    // clone whose origin differs); a pre-cloned remote repository is the user's, kept as is.
    if (location.kind === 'remote') return;
    const origin = await tryGit(cloneDir, ['remote', 'get-url', 'origin']);
    if (origin === source) return;
    await rm(cloneDir, { recursive: true, force: true });
  }
  if (location.kind === 'remote' && !options.fetchRemote) {
    throw new ConfigError(
      `${location.url}: no local clone at ${cloneDir}, and evalflow does not fetch from the network by default. ` +
        `Clone it there first (git clone ${location.url} ${cloneDir}), or set repository_url to a local path or file:// URL.`,
    );
  }
  if (location.kind === 'local' && !existsSync(location.path)) {
    throw new ConfigError(`repository_url: local repository ${location.path} does not exist`);
  }
  await mkdir(path.dirname(cloneDir), { recursive: true });
  await runGit(path.dirname(cloneDir), ['clone', '--quiet', '--no-checkout', source, cloneDir]);
}

async function resolveRevision(location: RepositoryLocation, cloneDir: string, revision: string, options: WorktreeOptions): Promise<string> {
  const resolve = () => tryGit(cloneDir, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]);
  const found = await resolve();
  if (found) return found;
  if (location.kind === 'local' || options.fetchRemote) {
    // New commits in the source since the clone was made: fetch them (a local path never
    // touches the network), then also try the revision itself (a sha not on any branch).
    await tryGit(cloneDir, ['fetch', '--quiet', 'origin']);
    const fetched = (await resolve()) ?? ((await tryGit(cloneDir, ['fetch', '--quiet', 'origin', revision])) !== undefined ? await resolve() : undefined);
    if (fetched) return fetched;
  }
  throw new SandboxError(
    `revision ${JSON.stringify(revision)} is not in ${cloneDir}` +
      (location.kind === 'remote' && !options.fetchRemote ? ` (fetch it there: git -C ${cloneDir} fetch origin ${revision})` : ''),
  );
}

/** Whether `dir` is the top of its own git checkout (not merely inside another repository). */
async function isOwnCheckout(dir: string): Promise<boolean> {
  if (!existsSync(path.join(dir, '.git'))) return false;
  const top = await tryGit(dir, ['rev-parse', '--show-toplevel']);
  return top !== undefined && top === (await realpath(dir));
}
