import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import type { PgliteExecutorOptions } from './pgliteExecutor.js';
import { claimPgliteDir, describeHolder, type LockHolder, type PgliteLock } from './pgliteLock.js';
import { connectServedStore, holderGone, lostConnection } from './servedStore.js';
import type { SqlExecutor } from './sqlExecutor.js';
import { handOverStore, startLingeringService, type LingerOptions } from './startLingeringService.js';
import { serviceSocketPath } from './storeService.js';
import { storeFailure } from './storeOperation.js';

/** The embedded store as this process reaches it: held here, or served by another process. */
export interface EmbeddedStore {
  /** Follows the store across takeovers; `close` also lets the data dir go when held here. */
  readonly sql: SqlExecutor;
  /** The process serving the store now (`process 123 (evalflow worker) on host`); null when held here. */
  servedBy(): string | null;
}

/** How often one operation follows the store to a new holder before giving up. */
const MAX_TAKEOVERS = 3;

/** Held here (with the lock) or served by `holder`. */
/** What this process wants of a lingering store service (see `OpenStoreOptions`). */
export interface ServiceWishes {
  /** A look-up: start one to hold a free store, and be served by it. */
  linger?: LingerOptions | undefined;
  /** A command that holds the store: hand it to one at close. */
  handOver?: LingerOptions | undefined;
}

interface Reach {
  sql: SqlExecutor;
  lock?: PgliteLock;
  holder?: LockHolder;
}

/**
 * Opens the PGlite data dir `dataDir`: the process that finds it free opens PGlite and serves
 * it; one that finds a live holder connects to that holder's socket.
 *
 * When the holder exits (cleanly or killed), the served process does not fail: the operation
 * that lost its connection claims the store again, so this process either takes it over
 * (takes the lock, opens PGlite, serves the others) or connects to whichever process did,
 * and then runs again. Running again is safe because a statement that lost its connection
 * either never ran, was rolled back with its transaction, or is one of the store's writes,
 * which are all upserts keyed by id (or replace a run's rows whole).
 *
 * With `linger` (a look-up), a free store is not opened here: a lingering store service is
 * started to hold it, and this process connects to it like any other (see
 * `startLingeringService.ts`); the look-ups after it are served at once. With `handOver`, a
 * store this process held is handed to such a service when it closes.
 */
export async function openEmbeddedStore(dataDir: string, serviceDir: string | undefined, schema: string | undefined, { linger, handOver }: ServiceWishes = {}): Promise<EmbeddedStore> {
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true }).catch((err: unknown) => {
    throw new ConfigError(`store: cannot create the PGlite data dir ${dir}: ${(err as Error).message}`, { cause: err });
  });
  const serveAt = serviceSocketPath(dir, serviceDir);
  let current = await reach(dir, serveAt, schema, linger);
  let reaching: Promise<Reach> | undefined;
  let closed = false;

  /** One claim for all the operations that lost the same holder at once. */
  const reachAgain = (lost: Reach): Promise<Reach> => {
    if (current !== lost) return Promise.resolve(current);
    reaching ??= (async () => {
      // In the background: a pool waits for its checked-out clients, which are failing too.
      void lost.sql.close().catch(() => undefined);
      current = await reach(dir, serveAt, schema, linger);
      return current;
    })().finally(() => {
      reaching = undefined;
    });
    return reaching;
  };

  const followed = async <T>(operation: (sql: SqlExecutor) => Promise<T>): Promise<T> => {
    for (let takeovers = 0; ; takeovers += 1) {
      const used = current;
      try {
        return await operation(used.sql);
      } catch (err) {
        if (!used.holder || closed || !lostConnection(err)) throw err;
        if (takeovers >= MAX_TAKEOVERS) throw holderGone(used.holder, err);
        await reachAgain(used);
      }
    }
  };

  const sql: SqlExecutor = {
    backend: 'pglite',
    query: <Row>(text: string, params?: readonly unknown[]) => followed((inner) => inner.query<Row>(text, params)),
    execScript: (script) => followed((inner) => inner.execScript(script)),
    // The whole transaction runs again on the new holder: the old one's was never committed.
    transaction: (fn) => followed((inner) => inner.transaction(fn)),
    redact: (text) => current.sql.redact(text),
    close: async () => {
      closed = true;
      await reaching?.catch(() => undefined);
      try {
        await current.sql.close();
      } finally {
        await current.lock?.release();
      }
      if (handOver && current.lock && serveAt) await handOverStore(dir, serveAt, schema, handOver);
    },
  };
  return { sql, servedBy: () => (current.holder ? describeHolder(current.holder) : null) };
}

/**
 * Claims the data dir: opens PGlite when it is free (or, with `linger`, starts a service to
 * hold it, once), else connects to the live holder; when that holder goes meanwhile, claims again.
 */
async function reach(dir: string, serveAt: string | undefined, schema: string | undefined, linger: LingerOptions | undefined): Promise<Reach> {
  let startService = linger !== undefined && serveAt !== undefined;
  for (;;) {
    const claim = await claimPgliteDir(dir, serveAt);
    if ('holder' in claim) {
      const served = await connectServedStore(dir, claim.holder, schema);
      if (served) return { sql: served, holder: claim.holder };
      continue;
    }
    if (startService && linger && serveAt) {
      // Let the dir go for the service to take; whoever takes it first holds it.
      await claim.lock.release();
      // Once: a service that could not be spawned, or held and left at once, is not chased.
      startService = false;
      await startLingeringService(dir, serveAt, schema, linger);
      continue;
    }
    try {
      return { sql: await openPglite({ dataDir: dir, ...(schema ? { schema } : {}), ...(serveAt ? { serveAt } : {}) }, `PGlite at ${dir}`), lock: claim.lock };
    } catch (err) {
      await claim.lock.release();
      throw err;
    }
  }
}

/** PGlite in this process, in memory (`dataDir` undefined) or on disk. */
export async function openPglite(options: PgliteExecutorOptions, what: string): Promise<SqlExecutor> {
  try {
    // Loaded only by the process that opens PGlite: one served by another never pays for it.
    const { createPgliteExecutor } = await import('./pgliteExecutor.js');
    return await createPgliteExecutor(options);
  } catch (err) {
    throw storeFailure({ redact: (text) => text }, `open ${what}`, err);
  }
}
