import { FormatError, StoreError } from '../errors.js';
import { driverMessage } from './sqlExecutor.js';
import type { SqlExecutor } from './sqlExecutor.js';

/**
 * Runs one repository operation and turns any driver failure into a StoreError that names
 * the operation: `store: getRun("run-x") failed: relation "runs" does not exist (SQLSTATE 42P01)`.
 * FormatErrors (bad input, bad rows) and StoreErrors pass through unchanged.
 */
export async function storeOperation<T>(sql: SqlExecutor, operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof StoreError || err instanceof FormatError) throw err;
    throw storeFailure(sql, operation, err);
  }
}

/**
 * A StoreError for `operation` from a driver error, redacted. The driver error stays as the
 * cause unless its text carries a secret; then only the redacted text survives, because
 * errors get logged together with their cause.
 */
export function storeFailure(sql: Pick<SqlExecutor, 'redact'>, operation: string, err: unknown): StoreError {
  const described = driverMessage(err);
  // The operation label is redacted too: it may quote a connection string or a value.
  const message = sql.redact(`store: ${operation} failed: ${described}`);
  const fullText = err instanceof Error ? `${described}\n${err.stack ?? ''}` : described;
  const cause = sql.redact(fullText) === fullText ? err : new Error(sql.redact(described));
  const failure = new StoreError(message, { cause });
  // A dropped connection or a restarting server may well work on the next try; a bad statement will not.
  if (isTransient(err)) (failure as { retryable: boolean }).retryable = true;
  return failure;
}

/** SQLSTATE classes 08 (connection), 53 (resources), 57P0x (shutdown), 40001/40P01 (serialization, deadlock), and socket errors. */
export function isTransient(err: unknown): boolean {
  const { code } = (err ?? {}) as { code?: unknown };
  if (typeof code !== 'string') return false;
  return /^(08|53)/.test(code) || /^57P0[1-3]$/.test(code) || code === '40001' || code === '40P01' || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code);
}

/** `postgres://user:secret@host/db` → `postgres://user:***@host/db`; unparsable → `(unparsable connection string)`. */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable connection string)';
  }
}

/** The password of a connection string, raw and URL-decoded, for scrubbing driver messages. */
export function connectionSecrets(connectionString: string): string[] {
  try {
    const password = new URL(connectionString).password;
    if (!password) return [];
    const decoded = safeDecode(password);
    return decoded === password ? [password] : [password, decoded];
  } catch {
    // An unparsable string may still hold a password somewhere: scrub the whole string.
    return connectionString ? [connectionString] : [];
  }
}

/** Replaces every occurrence of each secret with `***`. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The one row a `RETURNING` or key lookup must produce; its absence is a bug of ours. */
export function onlyRow<Row>(rows: readonly Row[], operation: string): Row {
  const row = rows[0];
  if (row === undefined) throw new StoreError(`store: ${operation} failed: the statement returned no row`);
  return row;
}

/** True for PostgreSQL's foreign_key_violation (SQLSTATE 23503). */
export function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23503';
}
