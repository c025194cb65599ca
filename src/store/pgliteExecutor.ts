import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import { normalizeRow } from './sqlExecutor.js';
import type { SqlExecutor } from './sqlExecutor.js';

export interface PgliteExecutorOptions {
  /** Data directory on disk; undefined keeps the database in memory (tests). */
  dataDir?: string;
  /** Validated schema name, set as the session's search_path (PGlite has one session). */
  schema?: string;
}

/**
 * A SqlExecutor over embedded PGlite (PostgreSQL compiled to WASM, in this process). PGlite
 * has a single connection and serialises queries itself; `transaction` holds it exclusively.
 * It does not lock its data directory against other processes: see `pgliteLock.ts`.
 */
export async function createPgliteExecutor(options: PgliteExecutorOptions): Promise<SqlExecutor> {
  const db = options.dataDir === undefined ? await PGlite.create() : await PGlite.create({ dataDir: options.dataDir });
  if (options.schema) {
    try {
      // SET outside a transaction lasts for the session, which is the whole PGlite instance.
      await db.exec(`SET search_path TO ${options.schema}`);
    } catch (err) {
      await db.close();
      throw err;
    }
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
    close: () => db.close(),
  };
}
