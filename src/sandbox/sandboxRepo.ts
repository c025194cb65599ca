import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cloneShared } from './cloneShared.js';
import { git } from './git.js';
import { ensureHistoryBase } from './historyBase.js';
import { NO_PUSH, pristineGitDir } from './pristineGitDir.js';
import { forgetBase, keepBase } from './sandboxBase.js';
import { isOwnClone, renewGitDir, takePooled } from './sandboxPool.js';

/** Where a sandbox's history comes from, and the pool it may be taken from. */
export interface SandboxSource {
  /** The host's sandbox root, under which the history bases live (historyBase.ts). */
  sandboxRoot: string;
  poolDir?: string;
}

/**
 * The run's sandbox: a clone of the history base of `rev` (historyBase.ts: the objects `rev`
 * reaches, one branch, nothing else of the user's repository) that borrows its objects
 * (`git clone --shared`, so it is quick) and owns everything else — its refs, its index, its
 * config and every object written while the run works (the candidate's commits, evalflow's
 * checkpoints). So the candidate sees no later commit, branch or tag of the user's, nothing a
 * run does reaches the user's repository, and removing the folder removes it all. Detached at
 * `rev`, `origin` is the base, pushing goes nowhere. With `poolDir`, a clone another run gave
 * back scrubbed (sandboxPool.ts) is reused when there is one: one already at `rev` is used as
 * it is (its release scrubbed it at that commit, HEAD included); another gets the `.git` of a
 * fresh clone of `rev`'s base (so it lists no other revision's objects) and is reset, a fraction
 * of a fresh checkout. Idempotent: a sandbox made whole before is kept exactly as it is (a
 * resumed or continued run finds the candidate's work), and one whose making was interrupted is
 * completed.
 */
export async function createSandbox(repoDir: string, sandboxDir: string, rev: string, source: SandboxSource): Promise<void> {
  const ready = `${sandboxDir}.ready`;
  const gitDir = join(sandboxDir, '.git');
  if (existsSync(ready) && existsSync(gitDir)) return;
  const baseDir = await ensureHistoryBase(source.sandboxRoot, repoDir, rev);
  if (!existsSync(gitDir) && source.poolDir) {
    const at = await takePooled(source.poolDir, sandboxDir, rev);
    if (at === rev && (await readFile(join(gitDir, 'HEAD'), 'utf8')).trim() === rev && (await isOwnClone(sandboxDir, baseDir))) return markReady(sandboxDir, rev);
  }
  // A pooled clone of another revision, or one interrupted while being made: nothing has run in
  // it, so it is completed in place (only files that differ are rewritten), or made again.
  if (existsSync(gitDir) && (await completeInPlace(sandboxDir, baseDir, rev, source.poolDir))) return markReady(sandboxDir, rev);
  await rm(sandboxDir, { recursive: true, force: true });
  await cloneShared(baseDir, sandboxDir);
  await git(sandboxDir, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
  await git(sandboxDir, ['update-ref', '--no-deref', 'HEAD', rev]);
  await git(sandboxDir, ['reset', '-q', '--hard', rev]);
  await markReady(sandboxDir, rev);
}

/**
 * Puts an existing clone at `rev`: with a pool, its `.git` becomes the pristine one of `rev`
 * (the base's refs and alternates, nothing of the revision it was at) keeping its index; without
 * one, only a clone of this very base is kept. False when it cannot be, so it is made again.
 */
async function completeInPlace(sandboxDir: string, baseDir: string, rev: string, poolDir: string | undefined): Promise<boolean> {
  try {
    if (poolDir) await renewGitDir(sandboxDir, await pristineGitDir(poolDir, baseDir, rev), undefined);
    else if (await isOwnClone(sandboxDir, baseDir)) {
      await git(sandboxDir, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
      await git(sandboxDir, ['update-ref', '--no-deref', 'HEAD', rev]);
    } else return false;
    await git(sandboxDir, ['reset', '-q', '--hard', rev]);
    await git(sandboxDir, ['clean', '-q', '-ffdx']);
    return true;
  } catch {
    return false;
  }
}

/** The sandbox is made: what it was made as is kept (sandboxBase.ts), and a resumed run keeps it. */
async function markReady(sandboxDir: string, rev: string): Promise<void> {
  await keepBase(sandboxDir, rev);
  await writeFile(`${sandboxDir}.ready`, rev);
}

/**
 * Hides what evalflow places in the sandbox from git (status, diff, clean) through the
 * sandbox's own exclude file, so `git status` shows only the candidate's changes.
 */
export async function hideFromGit(sandboxDir: string, patterns: string[]): Promise<void> {
  const exclude = join(sandboxDir, '.git', 'info', 'exclude');
  await mkdir(dirname(exclude), { recursive: true });
  const lines = patterns.map((p) => `/${p.replace(/^\/+/, '')}`);
  const current = existsSync(exclude) ? await readFile(exclude, 'utf8') : '';
  const missing = lines.filter((line) => !current.split('\n').includes(line));
  if (missing.length > 0) await appendFile(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
}

/** Removes the sandbox folder, and with it every ref and object the run made. */
export async function removeSandbox(sandboxDir: string): Promise<'removed' | 'absent'> {
  await rm(`${sandboxDir}.ready`, { force: true });
  await forgetBase(sandboxDir);
  if (!existsSync(sandboxDir)) return 'absent';
  await rm(sandboxDir, { recursive: true, force: true });
  return 'removed';
}

