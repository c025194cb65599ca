import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { git } from './git.js';
import { cloneShared } from './cloneShared.js';

/** Clones kept per project repository on a host when `EVALFLOW_SANDBOX_POOL` does not say. */
export const DEFAULT_POOL_SIZE = 8;

/** What cleanup needs to give a run's sandbox back: written beside the sandbox by prepare. */
interface PoolNote {
  poolDir: string;
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
  return join(sandboxRoot, '.pool', createHash('sha256').update(repoDir).digest('hex').slice(0, 16));
}

/**
 * Moves a clean pooled clone to `sandboxDir`, or says there is none. The move is a rename,
 * so two runs never take the same clone.
 */
export async function takePooled(poolDir: string, sandboxDir: string): Promise<boolean> {
  if (!existsSync(poolDir)) return false;
  for (const entry of await readdir(poolDir)) {
    if (!entry.startsWith('clean-')) continue;
    try {
      await mkdir(dirname(sandboxDir), { recursive: true });
      await rename(join(poolDir, entry), sandboxDir);
      return true;
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
 * removed. Scrubbed means its files are the project at the run's start commit (untracked and
 * ignored files gone), and its `.git` is made anew (refs, reflogs, config, hooks, objects the
 * run wrote, stashes: none survive), keeping only the index so the next run's checkout
 * rewrites just the files that differ. Anything unexpected (a `.git` that is not the clone's
 * own, a git command failing, the pool full) removes the sandbox instead.
 */
export async function releaseSandbox(sandboxDir: string, noteFile: string, limit: number): Promise<'pooled' | 'removed'> {
  const note = await readNote(noteFile);
  try {
    if (note && limit > 0 && (await isOwnClone(sandboxDir, note.repoDir)) && (await pooledCount(note.poolDir)) < limit) {
      await git(sandboxDir, ['reset', '-q', '--hard', note.rev]);
      await git(sandboxDir, ['clean', '-q', '-ffdx']);
      await renewGitDir(sandboxDir, note.repoDir);
      await mkdir(note.poolDir, { recursive: true });
      await rename(sandboxDir, join(note.poolDir, `clean-${randomBytes(6).toString('hex')}`));
      return 'pooled';
    }
  } catch {
    // fall through: a sandbox that cannot be scrubbed is not reused
  }
  await rm(sandboxDir, { recursive: true, force: true });
  return 'removed';
}

async function readNote(noteFile: string): Promise<PoolNote | undefined> {
  try {
    return JSON.parse(await readFile(noteFile, 'utf8')) as PoolNote;
  } catch {
    return undefined;
  }
}

/** The sandbox's `.git` is a real folder whose objects come from `repoDir`, as `cloneShared` made it. */
async function isOwnClone(sandboxDir: string, repoDir: string): Promise<boolean> {
  const gitDir = join(sandboxDir, '.git');
  if (!existsSync(gitDir) || !(await stat(gitDir)).isDirectory()) return false;
  const alternates = join(gitDir, 'objects', 'info', 'alternates');
  if (!existsSync(alternates)) return false;
  const expected = await realpath(join(repoDir, '.git', 'objects')).catch(() => join(repoDir, '.git', 'objects'));
  const listed = (await readFile(alternates, 'utf8')).split('\n').filter(Boolean);
  const resolved = await Promise.all(listed.map((line) => realpath(line).catch(() => line)));
  return resolved.length === 1 && resolved[0] === expected;
}

async function renewGitDir(sandboxDir: string, repoDir: string): Promise<void> {
  const fresh = `${sandboxDir}.git-${randomBytes(4).toString('hex')}`;
  await cloneShared(repoDir, fresh);
  const index = join(sandboxDir, '.git', 'index');
  if (existsSync(index)) await rename(index, join(fresh, '.git', 'index'));
  await rm(join(sandboxDir, '.git'), { recursive: true, force: true });
  await rename(join(fresh, '.git'), join(sandboxDir, '.git'));
  await rm(fresh, { recursive: true, force: true });
}

async function pooledCount(poolDir: string): Promise<number> {
  if (!existsSync(poolDir)) return 0;
  return (await readdir(poolDir)).filter((entry) => entry.startsWith('clean-')).length;
}
