import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, SourceFetchError } from '../errors.js';
import { withDirLock } from './dirLock.js';
import { git } from './git.js';
import { isCommitId, type GitSource } from './gitUrl.js';

/** How long asking a remote (ls-remote, fetch) may take before it counts as not answering. */
const REMOTE_TIMEOUT_MS = 10 * 60 * 1000;

/** Never ask for a password or a host key on a terminal: a worker has none, and would hang. */
const NO_PROMPT = { GIT_TERMINAL_PROMPT: '0', GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes' };

/**
 * `<stateDir>/mirrors/<hash of the URL>`: this host's bare copy of a repository given by URL.
 * Under the state folder, which is hidden from every candidate as a whole.
 */
export function mirrorDirFor(stateDir: string, url: string): string {
  return join(stateDir, 'mirrors', createHash('sha256').update(url).digest('hex').slice(0, 16));
}

/**
 * The commit `source` names now: its ref (a tag, a branch, `refs/…`), else the remote's HEAD,
 * as `git ls-remote` reads it; a full commit id is taken as it is (every host's fetch checks it).
 * Asked once, when a batch starts, so every host of the batch tests this very commit.
 */
export async function pinGitSource(source: GitSource, what: string): Promise<string> {
  if (source.ref && isCommitId(source.ref)) return source.ref;
  const ref = source.ref ?? 'HEAD';
  const listed = await git(process.cwd(), ['ls-remote', '--', source.url, ref, ...(ref === 'HEAD' ? [] : [`refs/tags/${ref}^{}`])], { allowFail: true, env: NO_PROMPT, timeoutMs: REMOTE_TIMEOUT_MS });
  if (listed.exitCode !== 0) throw new SourceFetchError(`${what} ${source.url}: cannot read its refs (git ls-remote): ${gitSays(listed)}`);
  const refs = new Map(
    listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.split('\t')[1]!, line.split('\t')[0]!] as const),
  );
  // git's own order for a short name: the name itself, refs/, tags (peeled to their commit), branches.
  const order = [ref, `refs/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`, `refs/heads/${ref}`];
  const commit = order.map((name) => refs.get(name)).find((id) => id !== undefined);
  if (!commit) throw new ConfigError(`${what} ${source.url}: no ref ${ref} there${ref === 'HEAD' ? ' (is the repository empty?)' : ''}`);
  return commit;
}

/** Fetches in this process, so parallel prepares of one commit fetch once. */
const fetching = new Map<string, Promise<string>>();

/**
 * This host's mirror of `url`, holding `commit`: fetched from the remote when it lacks it (under
 * a lock, so processes sharing the state folder fetch once), and kept there by a ref of its own,
 * so git's housekeeping never drops it. Sandboxes are made from it at exactly `commit`; the
 * mirror's other refs never reach them (historyBase.ts packs what `commit` reaches, nothing else).
 */
export async function ensureMirrorAt(stateDir: string, url: string, commit: string, what: string): Promise<string> {
  if (!isCommitId(commit)) throw new SourceFetchError(`${what} ${url}: expected a pinned full commit id, found '${commit}'`);
  const dir = mirrorDirFor(stateDir, url);
  if (await holds(dir, commit)) return dir;
  const key = `${dir}\0${commit}`;
  let pending = fetching.get(key);
  if (!pending) {
    pending = withDirLock(`${dir}.lock`, () => fetchInto(dir, url, commit, what)).finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  return pending;
}

async function fetchInto(dir: string, url: string, commit: string, what: string): Promise<string> {
  // Another process may have fetched it while this one waited for the lock.
  if (await holds(dir, commit)) return dir;
  if (!existsSync(join(dir, 'HEAD'))) await makeMirror(dir);
  // By id first (any server speaking protocol v2 allows it); else every branch and tag, in case it is among them.
  let fetched = await git(dir, ['fetch', '-q', '--no-tags', '--', url, commit], { allowFail: true, env: NO_PROMPT, timeoutMs: REMOTE_TIMEOUT_MS });
  if (fetched.exitCode !== 0) {
    const all = await git(dir, ['fetch', '-q', '--no-tags', '--', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { allowFail: true, env: NO_PROMPT, timeoutMs: REMOTE_TIMEOUT_MS });
    if (all.exitCode !== 0) fetched = all;
  }
  if (!(await holds(dir, commit))) {
    const why = fetched.exitCode !== 0 ? gitSays(fetched) : 'the remote has no such commit (was it rewritten or deleted since the batch started?)';
    throw new SourceFetchError(`${what} ${url}: cannot fetch commit ${commit} into this host's mirror ${dir}: ${why}`);
  }
  await git(dir, ['update-ref', `refs/evalflow/pinned/${commit}`, commit]);
  return dir;
}

/** A bare repository, made aside and renamed, so a mirror that exists is whole. */
async function makeMirror(dir: string): Promise<void> {
  const scratch = `${dir}.making-${randomBytes(4).toString('hex')}`;
  await mkdir(join(dir, '..'), { recursive: true });
  try {
    // No template: nothing of the host's git installation (sample hooks) goes into it.
    await git(join(dir, '..'), ['init', '-q', '--bare', '--template=', '--initial-branch=main', scratch]);
    await git(scratch, ['config', 'gc.auto', '0']);
    await rm(dir, { recursive: true, force: true });
    await rename(scratch, dir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** True when the mirror at `dir` exists and holds `commit` (with all it reaches: fetches are whole). */
async function holds(dir: string, commit: string): Promise<boolean> {
  if (!existsSync(join(dir, 'HEAD'))) return false;
  return (await git(dir, ['cat-file', '-e', `${commit}^{commit}`], { allowFail: true })).exitCode === 0;
}

function gitSays(result: { stderr: string; stdout: string; exitCode: number }): string {
  // git says it over several lines (`fatal: …`, then advice); a message is one line.
  const text = (result.stderr.trim() || result.stdout.trim()).split('\n').map((line) => line.trim()).filter(Boolean).join(' ');
  return text || `git exited with ${result.exitCode} and said nothing (did it time out after ${REMOTE_TIMEOUT_MS / 60_000} minutes?)`;
}
