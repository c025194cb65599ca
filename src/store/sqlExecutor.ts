/**
 * The tiny seam between the repositories and the two drivers (`pg` and PGlite). Every
 * repository is written once against this interface; the drivers differ only in how they
 * connect, how they run a multi-statement script and how they hold a transaction.
 */
export interface SqlExecutor {
  readonly backend: 'postgres' | 'pglite';
  /**
   * One statement with `$1…$n` parameters. Rows come back normalised so both drivers agree:
   * `timestamptz` as ISO strings (`…Z`), `jsonb` parsed, `numeric` as strings.
   */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** A script of several statements without parameters (migrations). */
  execScript(script: string): Promise<void>;
  /**
   * Runs `fn` on one connection inside BEGIN/COMMIT, rolling back when it throws. Nested
   * calls on the transaction's executor join the outer transaction.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** `text` with every secret of the connection (its password) replaced by `***`. */
  redact(text: string): string;
  close(): Promise<void>;
}

/** Makes a driver row plain JSON: `Date` values (timestamptz) become ISO strings. */
export function normalizeRow<Row>(row: Record<string, unknown>): Row {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] = value instanceof Date ? value.toISOString() : value;
  }
  return out as Row;
}

/** The driver's message plus its SQLSTATE code when it has one: `… (SQLSTATE 42P01)`. */
export function driverMessage(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const message = err.message || err.constructor.name;
    // SQLSTATEs (42P01) get a label; errno codes (ECONNREFUSED, EPIPE) are already in the
    // message, and no SQLSTATE class starts with E.
    const isSqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('E');
    return isSqlState ? `${message} (SQLSTATE ${code})` : message;
  }
  return String(err);
}
