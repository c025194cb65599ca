import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git } from './git.js';
import { historyBaseDir } from './historyBase.js';
import { mirrorDir, mirrorFile } from './mirrorDir.js';
import { pristineGitDir } from './pristineGitDir.js';
import { repoKey } from './repoKey.js';
import { forgetBase, readBase } from './sandboxBase.js';
import { scrubWorktree } from './scrubWorktree.js';

/** Clones kept per project repository on a host when `EVALFLOW_SANDBOX_POOL` does not say. */
export const DEFAULT_POOL_SIZE = 8;

/** What cleanup needs to give a run's sandbox back: written beside the sandbox by prepare. */
interface PoolNote {
  poolDir: string;
  /** Where the history bases live (historyBase.ts): the sandbox root. */
  sandboxRoot: string;
  repoDir: string;
  rev: string;
}

/** How many clones to keep per project repository: `EVALFLOW_SANDBOX_POOL`, 0 for none. */
export function poolSize(env: NodeJS.ProcessEnv): number {
  const raw = env.EVALFLOW_SANDBOX_POOL;
  if (raw === undefined || raw === '') return DEFAULT_POOL_SIZE;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_POOL_SIZE;
}

/** `<sandboxRoot>/.pool/<repo key>`: a dot folder, so the host sweep leaves it alone. */
export function poolDirFor(sandboxRoot: string, repoDir: string): string {
  return join(sandboxRoot, '.pool', repoKey(repoDir));
}

/**
 * Moves a clean pooled clone to `sandboxDir`, preferring one already at `rev`, and says which
 * commit its files are at ('' when its name does not say), or false when there is none. The
 * move is a rename, so two runs never take the same clone.
 */
export async function takePooled(poolDir: string, sandboxDir: string, rev?: string): Promise<string | false> {
  if (!existsSync(poolDir)) return false;
  const clean = (await readdir(poolDir)).filter((entry) => entry.startsWith('clean-'));
  const atRev = (entry: string) => rev !== undefined && entry.startsWith(`clean-${rev}-`);
  for (const entry of [...clean.filter(atRev), ...clean.filter((entry) => !atRev(entry))]) {
    try {
      await mkdir(dirname(sandboxDir), { recursive: true });
      await rename(join(poolDir, entry), sandboxDir);
      return /^clean-([0-9a-f]{40,64})-/.exec(entry)?.[1] ?? '';
    } catch {
      // taken by another run a moment ago
    }
  }
  return false;
}

/** Remembers where the run's sandbox came from, for `releaseSandbox` at cleanup. */
export async function notePool(noteFile: string, note: PoolNote): Promise<void> {
  await writeFile(noteFile, JSON.stringify(note));
}

/**
 * At cleanup: the sandbox goes back to its pool scrubbed of everything the run did, or is
 * removed. Scrubbed means its `.git` is made the same as a pristine one (refs, reflogs,
 * config, hooks, objects the run wrote, stashes: none survive) holding the index the sandbox
 * was made with, and then its files are put back to that index: changed files checked out again,
 * untracked and ignored files removed (a full reset and clean when no such index was kept).
 * The pooled clone's name says its commit, so a run at that commit takes it as it is.
 * Anything unexpected (a `.git` that is not the clone's own, borrowing from anywhere but the
 * history base of the commit it is given back at; a git command failing; the pool full)
 * removes the sandbox instead.
 */
export async function releaseSandbox(sandboxDir: string, noteFile: string, limit: number): Promise<'pooled' | 'removed'> {
  const note = await readNote(noteFile);
  const base = await readBase(sandboxDir);
  try {
    const rev = base?.rev ?? note?.rev;
    const historyBase = note?.sandboxRoot && rev ? historyBaseDir(note.sandboxRoot, note.repoDir, rev) : undefined;
    if (note && rev && historyBase && limit > 0 && (await isOwnClone(sandboxDir, historyBase)) && (await pooledCount(note.poolDir)) < limit) {
      // .git is made pristine first, so no git command below reads the run's config or hooks.
      await renewGitDir(sandboxDir, await pristineGitDir(note.poolDir, historyBase, rev), base?.index);
      if (base) await scrubWorktree(sandboxDir);
      else {
        // Clean first: a symlink it removes may hide, below it, files the reset must restore.
        await git(sandboxDir, ['clean', '-q', '-ffdx']);
        await git(sandboxDir, ['reset', '-q', '--hard', rev]);
      }
      await mkdir(note.poolDir, { recursive: true });
      await rename(sandboxDir, join(note.poolDir, `clean-${rev}-${randomBytes(6).toString('hex')}`));
      await forgetBase(sandboxDir);
      return 'pooled';
    }
  } catch {
    // fall through: a sandbox that cannot be scrubbed is not reused
  }
  await rm(sandboxDir, { recursive: true, force: true });
  await forgetBase(sandboxDir);
  return 'removed';
}

async function readNote(noteFile: string): Promise<PoolNote | undefined> {
  try {
    return JSON.parse(await readFile(noteFile, 'utf8')) as PoolNote;
  } catch {
    return undefined;
  }
}

/**
 * The sandbox's `.git` is a real folder (not a link) whose objects come from the history base
 * `baseDir` and nowhere else, as a clone of that base has it. A clone of the user's repository
 * (made before bases), of another revision's base, or whose alternates the run rewrote is not.
 */
export async function isOwnClone(sandboxDir: string, baseDir: string): Promise<boolean> {
  const gitDir = join(sandboxDir, '.git');
  if (!(await lstat(gitDir).catch(() => null))?.isDirectory()) return false;
  const alternates = join(gitDir, 'objects', 'info', 'alternates');
  if (!(await lstat(alternates).catch(() => null))?.isFile()) return false;
  const expected = await realpath(join(baseDir, 'objects')).catch(() => undefined);
  if (!expected) return false;
  const listed = (await readFile(alternates, 'utf8')).split('\n').filter(Boolean);
  const resolved = await Promise.all(listed.map((line) => realpath(line).catch(() => line)));
  return resolved.length === 1 && resolved[0] === expected;
}

/**
 * Makes the sandbox's `.git` the same as `pristine` (only what differs is written), with
 * `index` as its index, or the run's own when none is given.
 */
export async function renewGitDir(sandboxDir: string, pristine: string, index: string | undefined): Promise<void> {
  const gitDir = join(sandboxDir, '.git');
  await mirrorDir(pristine, gitDir, ['index']);
  if (index) await mirrorFile(index, join(gitDir, 'index'));
}

async function pooledCount(poolDir: string): Promise<number> {
  if (!existsSync(poolDir)) return 0;
  return (await readdir(poolDir)).filter((entry) => entry.startsWith('clean-')).length;
}
