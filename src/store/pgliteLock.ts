import { randomBytes } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { StoreError } from '../errors.js';

/** A held lock on a PGlite data directory; `release` is idempotent. */
export interface PgliteLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Who holds a data dir, as its lock file says: the process, and the socket it serves the store on. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The command line of the holder (`evalflow worker`), for messages. */
  command?: string;
  /** The Unix socket its store service listens on; absent when it does not serve. */
  socket?: string;
}

/** Either this process now holds the dir, or another live process does. */
export type PgliteClaim = { lock: PgliteLock } | { holder: LockHolder };

/**
 * Takes the lock file `<dataDir>.lock` next to a PGlite data directory, or names the live
 * process that holds it.
 *
 * Why: PGlite is a single-process database and does not lock its directory itself; two
 * processes opening the same directory both succeed and then corrupt it. So only one process
 * opens a data dir; it serves the store to the others on `socket` (see `storeService.ts`),
 * which the lock records so they can find it.
 *
 * A lock left behind by a dead process on this host is taken over. When a holder dies, every
 * process it served tries to take over at once (see `embeddedStore.ts`), so the stale lock is
 * removed only under a second lock, `<dataDir>.lock.takeover`: otherwise one process could
 * remove the lock another had just taken, and both would open PGlite. The same process asking
 * twice is a bug (it should share its Store), refused with a StoreError. `command` names the
 * holder in messages (default: this process's command line).
 */
export async function claimPgliteDir(dataDir: string, socket?: string, command?: string): Promise<PgliteClaim> {
  const path = `${dataDir}.lock`;
  const deadline = Date.now() + CLAIM_PATIENCE_MS;
  while (Date.now() < deadline) {
    if (await tryCreate(path, socket, command)) return { lock: heldLock(path) };
    const holder = await readHolder(path);
    if (holder === 'missing') continue;
    if (holder !== 'unreadable' && isAlive(holder)) {
      if (holder.pid === process.pid && holder.host === hostname()) {
        throw new StoreError(`store: PGlite data dir ${dataDir} is already open by this process (lock file ${path}); share one Store in-process`);
      }
      return { holder };
    }
    await removeStaleLock(path);
  }
  throw new StoreError(`store: could not take the PGlite lock file ${path}: another process keeps recreating it`);
}

/** How long to keep trying for the lock while others take over a stale one at the same time. */
const CLAIM_PATIENCE_MS = 10_000;

/**
 * Removes a lock whose holder is dead, holding the takeover lock meanwhile: while it is held,
 * no one else removes a lock, so the one read here is still the one removed. A takeover lock
 * left by a process that died in these few milliseconds is removed in turn (two processes
 * doing that in the same instant could both go on: only after two crashes).
 */
async function removeStaleLock(path: string): Promise<void> {
  const marker = `${path}.takeover`;
  if (!(await tryCreate(marker, undefined, undefined))) {
    const taker = await readHolder(marker);
    if (taker === 'unreadable' || (taker !== 'missing' && !isAlive(taker))) await rm(marker, { force: true });
    else await new Promise((wait) => setTimeout(wait, 10 + Math.random() * 20));
    return;
  }
  try {
    const holder = await readHolder(path);
    if (holder === 'unreadable' || (holder !== 'missing' && !isAlive(holder))) await rm(path, { force: true });
  } finally {
    await rm(marker, { force: true });
  }
}

/** Who the lock file names now ('missing' when no one holds the dir). */
export async function currentHolder(dataDir: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  return readHolder(`${dataDir}.lock`);
}

/** Whether two lock records name the same process. */
export function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host;
}

/** `process 123 (evalflow worker) on host` */
export function describeHolder(holder: LockHolder): string {
  return `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''} on ${holder.host}`;
}

/** Whether the holder is still running (a holder on another host is assumed to be). */
export function isAlive(holder: LockHolder): boolean {
  // A lock from another host (a shared network drive) cannot be checked: assume it is held.
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes the holder to a private file, then hard-links it into place: atomic and never half-written. */
async function tryCreate(path: string, socket: string | undefined, command: string | undefined): Promise<boolean> {
  // Unique per call: two claims of this process in the same millisecond must not share a draft.
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const record = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: command ?? commandLine(), ...(socket ? { socket } : {}) };
  try {
    await writeFile(draft, JSON.stringify(record), { flag: 'wx' });
    await link(draft, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StoreError(`store: could not create the PGlite lock file ${path}: ${(err as Error).message}`, { cause: err });
  } finally {
    await rm(draft, { force: true });
  }
}

/** `evalflow worker --queue x`, shortened: what a user would recognise in `ps`. */
function commandLine(): string {
  const script = process.argv[1] ? basename(process.argv[1]).replace(/\.(c|m)?[jt]s$/, '') : 'node';
  const name = script === 'client' || script === 'cli' ? 'evalflow' : script;
  return [name, ...process.argv.slice(2)].join(' ').slice(0, 120);
}

async function readHolder(path: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    // Gone since we looked: free to take. Not ours to read: treated as a broken lock.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return 'unreadable';
    return {
      pid: parsed.pid,
      host: parsed.host,
      ...(typeof parsed.command === 'string' ? { command: parsed.command } : {}),
      ...(typeof parsed.socket === 'string' ? { socket: parsed.socket } : {}),
    };
  } catch {
    return 'unreadable';
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
