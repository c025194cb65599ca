import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cloneShared } from './cloneShared.js';
import { git } from './git.js';

/** Pushing from a sandbox would write into the user's repository; the push URL goes nowhere. */
export const NO_PUSH = 'evalflow-sandbox-push-disabled';

/**
 * A sandbox's `.git` as a fresh sandbox gets it — a `git clone --shared --no-checkout` of
 * `repoDir`, push disabled, HEAD detached at `rev`, no index — made once and kept beside the
 * pool folder (`<poolDir>.pristine`, which holds clones only), so giving a sandbox back copies
 * it instead of cloning again. It is keyed by `rev`
 * and the repository's refs and HEAD, which the clone copies, so a repository whose branches
 * moved gets a new one (and the old ones go).
 */
export async function pristineGitDir(poolDir: string, repoDir: string, rev: string): Promise<string> {
  // %(HEAD) marks the branch HEAD is on: the clone's own branch follows it.
  const refs = await git(repoDir, ['for-each-ref', '--format=%(HEAD) %(objectname) %(refname)']);
  const key = createHash('sha256').update(`${rev}\n${refs.stdout}`).digest('hex').slice(0, 16);
  const home = `${poolDir}.pristine`;
  const dir = join(home, `git-${key}`);
  if (existsSync(dir)) return dir;
  const scratch = join(home, `making-${randomBytes(6).toString('hex')}`);
  try {
    await cloneShared(repoDir, scratch);
    await git(scratch, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
    await git(scratch, ['update-ref', '--no-deref', 'HEAD', rev]);
    await rename(join(scratch, '.git'), dir).catch((err: unknown) => {
      // Another release made the same one a moment ago.
      if (!existsSync(dir)) throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  for (const entry of await readdir(home)) {
    if (entry.startsWith('git-') && entry !== `git-${key}`) await rm(join(home, entry), { recursive: true, force: true });
  }
  return dir;
}
