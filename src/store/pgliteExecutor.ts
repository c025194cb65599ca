import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import { normalizeRow } from './sqlExecutor.js';
import { serveStore, type StoreService } from './storeService.js';
import type { SqlExecutor } from './sqlExecutor.js';

export interface PgliteExecutorOptions {
  /** Data directory on disk; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** Validated schema name, set as the session's search_path (PGlite has one session). */
  schema?: string;
  /** Serve the database to other processes on this Unix socket while it is open (see `storeService.ts`). */
  serveAt?: string;
}

/**
 * A SqlExecutor over embedded PGlite (PostgreSQL compiled to WASM, in this process). PGlite
 * has a single connection and serialises queries itself; `transaction` holds it exclusively.
 * It does not lock its data directory against other processes: see `pgliteLock.ts`; with
 * `serveAt`, the others reach it through this process instead.
 */
export async function createPgliteExecutor(options: PgliteExecutorOptions): Promise<SqlExecutor> {
  const db = options.dataDir === undefined ? await PGlite.create() : await PGlite.create({ dataDir: options.dataDir });
  let service: StoreService | undefined;
  try {
    // SET outside a transaction lasts for the session, which is the whole PGlite instance.
    if (options.schema) await db.exec(`SET search_path TO ${options.schema}`);
    if (options.serveAt) service = await serveStore(db, options.serveAt);
  } catch (err) {
    await db.close();
    throw err;
  }
  const redact = (text: string): string => text;

  const onTransaction = (tx: Transaction): SqlExecutor => ({
    backend: 'pglite',
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await tx.query<Record<string, unknown>>(text, [...params])).rows.map((row) => normalizeRow<Row>(row)),
    execScript: async (script) => {
      await tx.exec(script);
    },
    transaction: (fn) => fn(onTransaction(tx)),
    redact,
    close: () => Promise.reject(new Error('close() inside a transaction')),
  });

  return {
    backend: 'pglite',
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await db.query<Record<string, unknown>>(text, [...params])).rows.map((row) => normalizeRow<Row>(row)),
    execScript: async (script) => {
      await db.exec(script);
    },
    transaction: (fn) => db.transaction((tx) => fn(onTransaction(tx))),
    redact,
    close: async () => {
      try {
        await service?.close();
      } finally {
        await db.close();
      }
    },
  };
}
