import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SandboxError } from '../errors.js';
import { git } from './git.js';
import { repoKey } from './repoKey.js';

/** The branch a base gets when the user's HEAD is on none. */
const DETACHED_BRANCH = 'main';

/** A folder being made that is older than this was left by a maker that died. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Replace refs could make the user's history look other than its commits say. */
const PLAIN_HISTORY = { GIT_NO_REPLACE_OBJECTS: '1' };

/**
 * `<sandboxRoot>/.bases/<repo key>/<rev>.git`: the case's history and nothing more, the
 * repository every sandbox at `rev` borrows its objects from. A dot folder, so the host sweep
 * leaves it alone. Everything a sandbox's git reads of the user's history is in it, so binding
 * this one folder read-only gives a contained agent all it needs.
 */
export function historyBaseDir(sandboxRoot: string, repoDir: string, rev: string): string {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(rev)) throw new SandboxError(`history base: expected a full commit id, got ${JSON.stringify(rev)}`);
  return join(sandboxRoot, '.bases', repoKey(repoDir), `${rev}.git`);
}

/** Bases being made in this process, so concurrent prepares of one revision pack it once. */
const making = new Map<string, Promise<string>>();

/**
 * The base of `rev`, made when missing: a bare repository holding exactly the objects reachable
 * from `rev` (one pack, written by `git pack-objects --revs` reading the user's repository),
 * no alternates, and one ref: a branch at `rev` named as the one the user's HEAD is on (`main`
 * when detached), which HEAD names. The user's repository is only read. Made aside and renamed
 * into place, so a base that exists is whole; two makers race only to the rename, and the
 * loser's copy is dropped. Bases are never changed once made and are kept (sandboxes and
 * pooled clones borrow their objects), one per revision a case starts at.
 */
export async function ensureHistoryBase(sandboxRoot: string, repoDir: string, rev: string): Promise<string> {
  const dir = historyBaseDir(sandboxRoot, repoDir, rev);
  if (existsSync(dir)) return dir;
  let pending = making.get(dir);
  if (!pending) {
    pending = makeBase(repoDir, rev, dir).finally(() => making.delete(dir));
    making.set(dir, pending);
  }
  return pending;
}

async function makeBase(repoDir: string, rev: string, dir: string): Promise<string> {
  const home = dirname(dir);
  await mkdir(home, { recursive: true });
  await dropAbandoned(home);
  const scratch = join(home, `making-${randomBytes(6).toString('hex')}.git`);
  try {
    const [format, branch] = await Promise.all([objectFormat(repoDir), headBranch(repoDir)]);
    // No template: nothing of the host's git installation (sample hooks) goes into the base.
    await git(home, ['init', '-q', '--bare', '--template=', `--object-format=${format}`, scratch]);
    await mkdir(join(scratch, 'objects', 'pack'), { recursive: true });
    // --revs walks from rev only, so the pack holds exactly what rev reaches. --window=0: no
    // new delta search (deltas already packed in the user's repository are reused), which
    // keeps a first run at a revision quick; the pack is made once per revision.
    await git(repoDir, ['pack-objects', '-q', '--revs', '--window=0', join(scratch, 'objects', 'pack', 'pack')], { input: `${rev}\n`, env: PLAIN_HISTORY });
    await keepShallowEnds(repoDir, scratch);
    await git(scratch, ['update-ref', `refs/heads/${branch}`, rev]);
    await git(scratch, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    await rename(scratch, dir).catch((err: unknown) => {
      // Another maker put the same base in place a moment ago.
      if (!existsSync(dir)) throw err;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return dir;
}

/** The branch the user's HEAD is on, or `main` when it is detached. */
async function headBranch(repoDir: string): Promise<string> {
  const head = await git(repoDir, ['symbolic-ref', '-q', '--short', 'HEAD'], { allowFail: true });
  return (head.exitCode === 0 && head.stdout.trim()) || DETACHED_BRANCH;
}

/** sha1 or sha256: the base must name objects as the user's repository does. */
async function objectFormat(repoDir: string): Promise<string> {
  return (await git(repoDir, ['rev-parse', '--show-object-format'])).stdout.trim() || 'sha1';
}

/**
 * A shallow user repository ends its history at commits whose parents it lacks; the base, which
 * lacks them too, must say so (its `shallow` file) or git fails walking past them. Only the ends
 * the base holds are listed.
 */
async function keepShallowEnds(repoDir: string, baseDir: string): Promise<void> {
  const shallowFile = (await git(repoDir, ['rev-parse', '--path-format=absolute', '--git-path', 'shallow'])).stdout.trim();
  const ends = (await readFile(shallowFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  if (ends.length === 0) return;
  const held = (await git(baseDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: `${ends.join('\n')}\n` })).stdout
    .split('\n')
    .filter((line) => line.endsWith(' commit'))
    .map((line) => line.split(' ')[0]);
  if (held.length > 0) await writeFile(join(baseDir, 'shallow'), `${held.join('\n')}\n`);
}

/** Folders left by makers that died mid-way: never renamed into place, so nothing uses them. */
async function dropAbandoned(home: string): Promise<void> {
  for (const entry of await readdir(home)) {
    if (!entry.startsWith('making-')) continue;
    const path = join(home, entry);
    const made = await stat(path).catch(() => null);
    if (made && Date.now() - made.mtimeMs > ABANDONED_AFTER_MS) await rm(path, { recursive: true, force: true });
  }
}
