import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cloneShared } from './cloneShared.js';
import { git } from './git.js';
import { NO_PUSH } from './pristineGitDir.js';
import { forgetBase, keepBase } from './sandboxBase.js';
import { takePooled } from './sandboxPool.js';

/**
 * The run's sandbox: a clone of the project repository that borrows its objects
 * (`git clone --shared`) and owns everything else — its refs, its index, its config and every
 * object written while the run works (the candidate's commits, evalflow's checkpoints). So
 * nothing a run does reaches the user's repository, and removing the folder removes it all.
 * Detached at `rev`. With `poolDir`, a clone another run gave back scrubbed (sandboxPool.ts)
 * is reused when there is one: one already at `rev` is used as it is (its release scrubbed it
 * at that commit, HEAD included), another is reset, a fraction of a fresh checkout. Idempotent:
 * a sandbox made whole before is kept exactly as it is (a resumed or continued run finds the
 * candidate's work), and one whose making was interrupted is completed.
 */
export async function createSandbox(repoDir: string, sandboxDir: string, rev: string, options: { poolDir?: string } = {}): Promise<void> {
  const ready = `${sandboxDir}.ready`;
  if (existsSync(ready) && existsSync(join(sandboxDir, '.git'))) return;
  if (!existsSync(join(sandboxDir, '.git')) && options.poolDir) {
    const at = await takePooled(options.poolDir, sandboxDir, rev);
    if (at === rev && (await readFile(join(sandboxDir, '.git', 'HEAD'), 'utf8')).trim() === rev) {
      await keepBase(sandboxDir, rev);
      await writeFile(ready, rev);
      return;
    }
  }
  if (existsSync(join(sandboxDir, '.git'))) {
    const valid = await git(sandboxDir, ['rev-parse', '--git-dir'], { allowFail: true });
    if (valid.exitCode === 0) {
      // A pooled clone, or one interrupted while being made: nothing has run in it, so put
      // HEAD and the files at rev (only what differs is rewritten).
      await git(sandboxDir, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
      await git(sandboxDir, ['update-ref', '--no-deref', 'HEAD', rev]);
      await git(sandboxDir, ['reset', '-q', '--hard', rev]);
      await git(sandboxDir, ['clean', '-q', '-ffdx']);
      await keepBase(sandboxDir, rev);
      await writeFile(ready, rev);
      return;
    }
  }
  await rm(sandboxDir, { recursive: true, force: true });
  await cloneShared(repoDir, sandboxDir);
  await git(sandboxDir, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
  await git(sandboxDir, ['update-ref', '--no-deref', 'HEAD', rev]);
  await git(sandboxDir, ['reset', '-q', '--hard', rev]);
  await keepBase(sandboxDir, rev);
  await writeFile(ready, rev);
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

