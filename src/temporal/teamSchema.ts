import { join } from 'node:path';
import { execa } from 'execa';
import pg from 'pg';
import { ConfigError } from '../errors.js';

/** Where team mode keeps Temporal's data: a PostgreSQL server and the two database names. */
export interface TeamDatabase {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Temporal's history (`temporal` by default: the URL's database name). */
  database: string;
  /** Its visibility store, `<database>_visibility`. */
  visibility: string;
}

/** `postgres://user[:password]@host[:port]/name` → the two databases; a URL that is not one is a ConfigError. */
export function teamDatabaseOf(url: string): TeamDatabase {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoed: a malformed URL may still hold a password.
    throw new ConfigError(`--database-url: not a URL; expected postgres://USER[:PASSWORD]@HOST:PORT/NAME`);
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) throw new ConfigError(`--database-url: expected a postgres:// URL, found ${parsed.protocol}//…`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'temporal';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(database)) throw new ConfigError(`--database-url: the database name must be lowercase letters, digits and '_', found ${JSON.stringify(database)}`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username) || 'postgres',
    password: decodeURIComponent(parsed.password),
    database,
    visibility: `${database}_visibility`,
  };
}

/**
 * Creates the two databases when missing and brings their schemas to the server's version
 * with its own SQL tool (setup at 0.0, then every versioned step; steps already applied are
 * skipped, so this is also the upgrade). A PostgreSQL that cannot be reached or refuses the
 * role is one line before anything is created; a failing step says which and what to run.
 */
export async function prepareTeamSchemas(db: TeamDatabase, tools: { sql: string; schemaDir: string }, say: (line: string) => void): Promise<void> {
  const admin = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: 'postgres', connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new ConfigError(`PostgreSQL at ${db.host}:${db.port} as ${db.user}: ${(err as Error).message}; start it, or give a URL of a role that may create databases (--database-url postgres://USER@HOST:PORT/NAME)`);
  }
  try {
    for (const [name, kind] of [[db.database, 'temporal'], [db.visibility, 'visibility']] as const) {
      const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0;
      // The password through SQL_PASSWORD: never on a command line (ps) nor in the "run by hand" line.
      const base = ['--plugin', 'postgres12', '--ep', db.host, '-p', String(db.port), '-u', db.user, '--db', name];
      const step = async (what: string, args: string[]) => {
        const result = await execa(tools.sql, [...base, ...args], { reject: false, env: { SQL_PASSWORD: db.password } });
        if (result.exitCode !== 0) {
          const tail = `${String(result.stderr)}\n${String(result.stdout)}`.trim().split('\n').slice(-2).join(' / ');
          throw new ConfigError(`schema setup of database ${name} failed at "${what}": ${tail}; fix that and run again (every step is repeatable), or run by hand: ${db.password ? 'SQL_PASSWORD=… ' : ''}${tools.sql} ${[...base, ...args].join(' ')}`);
        }
      };
      if (!exists) {
        say(`creating database ${name}`);
        await step('create', ['create']);
      }
      if (!(await hasSchemaVersion(db, name))) await step('setup-schema', ['setup-schema', '-v', '0.0']);
      await step('update-schema', ['update-schema', '-d', join(tools.schemaDir, kind, 'versioned')]);
    }
  } finally {
    await admin.end();
  }
}

/** Whether the SQL tool set this database up already (it keeps its version in `schema_version`). */
async function hasSchemaVersion(db: TeamDatabase, name: string): Promise<boolean> {
  const client = new pg.Client({ host: db.host, port: db.port, user: db.user, password: db.password, database: name, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'schema_version'")).rowCount! > 0;
  } finally {
    await client.end();
  }
}
