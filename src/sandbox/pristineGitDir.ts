import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cloneShared } from './cloneShared.js';
import { git } from './git.js';

/** Pushing from a sandbox would write into the repository it came from; the push URL goes nowhere. */
export const NO_PUSH = 'evalflow-sandbox-push-disabled';

/**
 * A sandbox's `.git` as a fresh sandbox at `rev` gets it — a `git clone --shared --no-checkout`
 * of `rev`'s history base (`baseDir`, see historyBase.ts), push disabled, HEAD detached at
 * `rev`, no index — made once per revision and kept beside the pool folder
 * (`<poolDir>.pristine`, which holds clones only), so giving a sandbox back, or turning a
 * pooled clone to another revision, copies it instead of cloning again. A base never changes,
 * so neither does its pristine `.git`.
 */
export async function pristineGitDir(poolDir: string, baseDir: string, rev: string): Promise<string> {
  const home = `${poolDir}.pristine`;
  const dir = join(home, `${rev}.git`);
  if (existsSync(dir)) return dir;
  const scratch = join(home, `making-${randomBytes(6).toString('hex')}`);
  try {
    await cloneShared(baseDir, scratch);
    await git(scratch, ['remote', 'set-url', '--push', 'origin', NO_PUSH]);
    await git(scratch, ['update-ref', '--no-deref', 'HEAD', rev]);
    await rename(join(scratch, '.git'), dir).catch((err: unknown) => {
      // Another release made the same one a moment ago.
      if (!existsSync(dir)) throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  // Older versions kept one, cloned from the user's repository, under `git-<key>`.
  for (const entry of await readdir(home)) {
    if (entry.startsWith('git-')) await rm(join(home, entry), { recursive: true, force: true });
  }
  return dir;
}
