import { dirname } from 'node:path';
import { StoreBusyError, StoreError } from '../errors.js';
import { currentHolder, describeHolder, isAlive, sameHolder, type LockHolder } from './pgliteLock.js';
import { createPgExecutor } from './pgExecutor.js';
import type { SqlExecutor } from './sqlExecutor.js';
import { isTransient } from './storeOperation.js';

/** How long to wait for a live holder's socket to answer: it may still be opening PGlite. */
const CONNECT_PATIENCE_MS = 30_000;

/**
 * Connects to the store another process holds and serves (see `storeService.ts`), through
 * the `pg` driver: no WASM engine is loaded here. Returns undefined when the holder exits or
 * lets the store go while we wait (the caller then claims it again); StoreBusyError when it
 * lives but does not serve, or does not answer in time.
 */
export async function connectServedStore(dataDir: string, holder: LockHolder, schema: string | undefined): Promise<SqlExecutor | undefined> {
  const { socket } = holder;
  if (!socket) throw busy(dataDir, holder, 'which does not serve it to other commands');
  const deadline = Date.now() + CONNECT_PATIENCE_MS;
  for (;;) {
    // pg reads a host that is a path as the folder of the socket `.s.PGSQL.<port>`.
    const sql = createPgExecutor({
      connectionString: `postgresql://postgres@${encodeURIComponent(dirname(socket))}/postgres`,
      ...(schema ? { schema } : {}),
      connectTimeoutMs: 5_000,
    });
    try {
      await sql.query('SELECT 1');
      return sql;
    } catch (err) {
      await sql.close().catch(() => undefined);
      if (!isAlive(holder) || !(await stillHolds(dataDir, holder))) return undefined;
      if (!lostConnection(err)) throw err;
      if (Date.now() > deadline) throw busy(dataDir, holder, `whose store service at ${socket} does not answer`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
}

function busy(dataDir: string, holder: LockHolder, why: string): StoreBusyError {
  return new StoreBusyError(
    `store: the embedded store ${dataDir} is held by ${describeHolder(holder)}, ${why}; run this command again once it has finished (or stop it), or set DATABASE_URL to share a PostgreSQL`,
  );
}

/** A holder that closes its store (and goes on running) removes its lock first thing after. */
async function stillHolds(dataDir: string, holder: LockHolder): Promise<boolean> {
  const now = await currentHolder(dataDir);
  return typeof now === 'object' && sameHolder(now, holder);
}

/** What a served process says when its holder went away and the store could not be taken over. */
export function holderGone(holder: LockHolder, cause: unknown): StoreError {
  return new StoreError(`store: ${describeHolder(holder)}, which served the embedded store, has exited or stopped serving; run this command again`, { cause });
}

/** Whether a failure means the connection to the holder is gone (it exited, or stopped serving). */
export function lostConnection(err: unknown): boolean {
  // A repository may have wrapped the driver's error already (inside a transaction, say).
  if (err instanceof StoreError) return err.cause !== undefined && !(err.cause instanceof StoreError) && lostConnection(err.cause);
  const { code } = (err ?? {}) as { code?: unknown };
  return isTransient(err) || code === 'ENOENT' || (err instanceof Error && /Connection terminated|not queryable|ended|timeout exceeded when trying to connect/i.test(err.message));
}
