import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, readdir, rename, rm } from 'node:fs/promises';
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
  const key = createHash('sha256').update(`${rev}\n${await listRefs(repoDir)}`).digest('hex').slice(0, 16);
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

/** The repository's refs as last listed, with the signature of its ref files then. */
const listed = new Map<string, { signature: string; refs: string }>();

/**
 * The repository's refs and which branch HEAD is on (%(HEAD) marks it: the clone's own branch
 * follows it). Listed by git again only when a ref file changed since the last listing.
 */
async function listRefs(repoDir: string): Promise<string> {
  const signature = await refFilesSignature(repoDir);
  const known = listed.get(repoDir);
  if (signature !== undefined && known?.signature === signature) return known.refs;
  const refs = (await git(repoDir, ['for-each-ref', '--format=%(HEAD) %(objectname) %(refname)'])).stdout;
  if (signature !== undefined) listed.set(repoDir, { signature, refs });
  return refs;
}

/**
 * The stats of `.git/HEAD`, `.git/packed-refs` and everything below `.git/refs`: git writes a
 * ref by renaming a new file into place, so any ref written or removed changes one of them.
 * Undefined when `.git` is not a folder (a worktree's or submodule's): then git is asked.
 */
async function refFilesSignature(repoDir: string): Promise<string | undefined> {
  const gitDir = join(repoDir, '.git');
  if (!(await lstat(gitDir).catch(() => null))?.isDirectory()) return undefined;
  const parts: string[] = [];
  const add = async (path: string) => {
    const found = await lstat(path).catch(() => null);
    parts.push(found ? `${path} ${found.ino} ${found.size} ${found.mtimeMs} ${found.ctimeMs}` : `${path} -`);
    return found;
  };
  const walk = async (dir: string): Promise<void> => {
    if (!(await add(dir))?.isDirectory()) return;
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) await walk(join(dir, entry.name));
      else await add(join(dir, entry.name));
    }
  };
  await add(join(gitDir, 'HEAD'));
  await add(join(gitDir, 'packed-refs'));
  await walk(join(gitDir, 'refs'));
  return parts.join('\n');
}
