import { InternalError, StoreError } from '../errors.js';
import { migrations as allMigrations } from './migrations/migrations.js';
import type { Migration } from './migrations/migrations.js';
import type { SqlExecutor } from './sqlExecutor.js';
import { storeOperation } from './storeOperation.js';

/** What a `migrate` call did. */
export interface MigrationReport {
  /** Versions applied by this call, in order; empty when the schema was already current. */
  applied: number[];
  /** The highest version now recorded in `schema_migrations`. */
  current: number;
}

/**
 * Brings the store's schema up to date: creates the schema (when one is named) and
 * `schema_migrations`, then applies each missing migration in order, one transaction each.
 * Idempotent. Safe when several processes migrate at once: every step holds a transaction
 * advisory lock keyed by the schema name, and re-checks what is applied under it.
 */
export async function migrate(sql: SqlExecutor, schema: string | undefined, migrations: readonly Migration[] = allMigrations): Promise<MigrationReport> {
  assertOrdered(migrations);
  const current = await alreadyCurrent(sql, migrations);
  if (current !== undefined) return { applied: [], current };
  const lockKey = `evalflow:migrate:${schema ?? 'default'}`;

  const recorded = await storeOperation(sql, 'migrate (prepare schema_migrations)', () =>
    sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
      if (schema) await tx.execScript(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await tx.execScript(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer PRIMARY KEY,
        name       text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      return tx.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
    }),
  );
  checkNames(recorded, migrations);

  const done = new Set(recorded.map((row) => row.version));
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const label = `migrate (apply ${String(migration.version).padStart(3, '0')}_${migration.name})`;
    const ran = await storeOperation(sql, label, () =>
      sql.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lockKey]);
        // Another process may have applied it while we waited for the lock.
        const already = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
        if (already.length > 0) return false;
        await tx.execScript(migration.sql);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        return true;
      }),
    );
    if (ran) applied.push(migration.version);
    done.add(migration.version);
  }
  return { applied, current: Math.max(0, ...done) };
}

/**
 * The highest recorded version when every migration is recorded already, read in one query
 * without the lock (what is recorded is committed, and migrations are only ever added): every
 * command opens the store, and the locked path is five round trips, each a wait for a served
 * command. Undefined when something is missing or the table cannot be read (a fresh schema):
 * the locked path then creates and applies what is missing.
 */
async function alreadyCurrent(sql: SqlExecutor, migrations: readonly Migration[]): Promise<number | undefined> {
  let recorded: { version: number; name: string }[];
  try {
    recorded = await sql.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
  } catch {
    return undefined;
  }
  checkNames(recorded, migrations);
  const done = new Set(recorded.map((row) => row.version));
  return migrations.every((migration) => done.has(migration.version)) ? Math.max(0, ...done) : undefined;
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new InternalError(`store migrations: entry ${index} has version ${migration.version}, expected ${index + 1} (versions run 1, 2, 3… with no gaps)`);
    }
  });
}

/** A recorded version under another name means this database was migrated by a diverged evalflow. */
function checkNames(recorded: readonly { version: number; name: string }[], migrations: readonly Migration[]): void {
  for (const row of recorded) {
    const known = migrations.find((migration) => migration.version === row.version);
    if (known && known.name !== row.name) {
      throw new StoreError(
        `store: migrate failed: schema_migrations records version ${row.version} as "${row.name}", but this evalflow's version ${row.version} is "${known.name}"; the database was migrated by a different evalflow build`,
      );
    }
  }
}

/** The highest migration the store records (0 for an empty database) and the highest this evalflow knows; reads only. */
export async function schemaVersion(sql: SqlExecutor, migrations: readonly Migration[] = allMigrations): Promise<{ recorded: number; known: number }> {
  return storeOperation(sql, 'schemaVersion', async () => {
    const [table] = await sql.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
    const rows = table?.present ? await sql.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations') : [];
    return { recorded: Number(rows[0]?.version ?? 0), known: migrations.length };
  });
}
