import { dirname } from 'node:path';
import { StoreBusyError, StoreError } from '../errors.js';
import { describeHolder, isAlive, type LockHolder } from './pgliteLock.js';
import { createPgExecutor } from './pgExecutor.js';
import type { SqlExecutor } from './sqlExecutor.js';
import { isTransient } from './storeOperation.js';

/** How long to wait for a live holder's socket to answer: it may still be opening PGlite. */
const CONNECT_PATIENCE_MS = 30_000;

/**
 * Connects to the store another process holds and serves (see `storeService.ts`), through
 * the `pg` driver: no WASM engine is loaded here. Returns undefined when the holder exits
 * while we wait (the caller then opens the store itself); StoreBusyError when it lives but
 * does not serve, or does not answer in time.
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
      return goneClearly(sql, holder);
    } catch (err) {
      await sql.close().catch(() => undefined);
      if (!isAlive(holder)) return undefined;
      if (!isTransient(err) && (err as { code?: unknown }).code !== 'ENOENT') throw err;
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

/** A lost connection says that the serving process went away and what to do, not a driver's words. */
function goneClearly(sql: SqlExecutor, holder: LockHolder): SqlExecutor {
  const translate = (err: unknown): never => {
    if (err instanceof StoreError || !lostConnection(err)) throw err;
    throw new StoreError(`store: ${describeHolder(holder)}, which served the embedded store, has exited or stopped serving; run this command again`, {
      cause: err,
    });
  };
  const wrap = (inner: SqlExecutor): SqlExecutor => ({
    backend: 'pglite',
    query: <Row>(text: string, params?: readonly unknown[]) => inner.query<Row>(text, params).catch(translate),
    execScript: (script) => inner.execScript(script).catch(translate),
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))).catch(translate),
    redact: (text) => inner.redact(text),
    close: () => inner.close(),
  });
  return wrap(sql);
}

function lostConnection(err: unknown): boolean {
  return isTransient(err) || (err instanceof Error && /Connection terminated|not queryable|ended/i.test(err.message));
}
