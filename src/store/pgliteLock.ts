import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { StoreError } from '../errors.js';

/** A held lock on a PGlite data directory; `release` is idempotent. */
export interface PgliteLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes the lock file `<dataDir>.lock` next to a PGlite data directory.
 *
 * Why: PGlite is a single-process database and does not lock its directory itself; two
 * processes opening the same directory both succeed and then corrupt it. So only one process
 * may open a data dir at a time: the CLI and its in-process worker share one Store instance,
 * and anything that needs several processes (workers on other hosts, a dashboard while a
 * batch runs) sets DATABASE_URL to a real PostgreSQL instead.
 *
 * A lock left behind by a dead process on this host is taken over. Two processes taking
 * over the same stale lock in the same instant could both win; that window is tiny and
 * only opens after a crash.
 */
export async function acquirePgliteLock(dataDir: string): Promise<PgliteLock> {
  const path = `${dataDir}.lock`;
  for (let tries = 0; tries < 2; tries += 1) {
    if (await tryCreate(path)) return heldLock(path);
    const holder = await readHolder(path);
    if (holder && isAlive(holder)) {
      const who = holder.pid === process.pid && holder.host === hostname() ? 'this process' : `process ${holder.pid} on ${holder.host}`;
      throw new StoreError(
        `store: PGlite data dir ${dataDir} is already open by ${who} (lock file ${path}); ` +
          'PGlite allows one process per data dir: share one Store in-process, or set DATABASE_URL to use PostgreSQL',
      );
    }
    await rm(path, { force: true });
  }
  throw new StoreError(`store: could not take the PGlite lock file ${path}: another process keeps recreating it`);
}

interface LockHolder {
  pid: number;
  host: string;
}

/** Writes the holder to a private file, then hard-links it into place: atomic and never half-written. */
async function tryCreate(path: string): Promise<boolean> {
  const draft = `${path}.${process.pid}.${Date.now()}`;
  try {
    await writeFile(draft, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }), { flag: 'wx' });
    await link(draft, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StoreError(`store: could not create the PGlite lock file ${path}: ${(err as Error).message}`, { cause: err });
  } finally {
    await rm(draft, { force: true });
  }
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? { pid: parsed.pid, host: parsed.host } : undefined;
  } catch {
    // Gone since we looked, or not ours to read: let the next try decide.
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  // A lock from another host (a shared network drive) cannot be checked: assume it is held.
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function heldLock(path: string): PgliteLock {
  let released = false;
  return {
    path,
    release: async () => {
      if (released) return;
      released = true;
      await rm(path, { force: true });
    },
  };
}
