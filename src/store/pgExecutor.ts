import pg from 'pg';
import type { PoolClient } from 'pg';
import { normalizeRow } from './sqlExecutor.js';
import type { SqlExecutor } from './sqlExecutor.js';
import { connectionSecrets, scrubSecrets } from './storeOperation.js';

export interface PgExecutorOptions {
  connectionString: string;
  /** Validated schema name; every pooled connection starts with it as its search_path. */
  schema?: string;
  /** How long to wait for a connection before failing (pg's default waits forever). */
  connectTimeoutMs?: number;
}

/** A SqlExecutor over a `pg.Pool`, so many workers and the CLI can share one PostgreSQL. */
export function createPgExecutor(options: PgExecutorOptions): SqlExecutor {
  const secrets = connectionSecrets(options.connectionString);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // A startup parameter, so the search_path holds on every connection the pool ever opens.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection dropped by the server must not crash the process; the next query
  // that needs a connection reports the failure as a StoreError instead.
  pool.on('error', () => undefined);
  const redact = (text: string): string => scrubSecrets(text, secrets);

  const onClient = (client: PoolClient): SqlExecutor => ({
    backend: 'postgres',
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await client.query(text, [...params])).rows.map((row: Record<string, unknown>) => normalizeRow<Row>(row)),
    execScript: async (script) => {
      await client.query(script);
    },
    transaction: (fn) => fn(onClient(client)),
    redact,
    close: () => Promise.reject(new Error('close() inside a transaction')),
  });

  return {
    backend: 'postgres',
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await pool.query(text, [...params])).rows.map((row: Record<string, unknown>) => normalizeRow<Row>(row)),
    execScript: async (script) => {
      await pool.query(script);
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is broken: destroy it rather than reuse it.
      let broken: Error | undefined;
      // A connection lost between two statements (the server went away) is reported by the
      // next statement; unheard here, the client's 'error' event would crash the process.
      const onError = (err: Error): void => {
        broken ??= err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const value = await fn(onClient(client));
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
          broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
        });
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    redact,
    close: () => pool.end(),
  };
}
