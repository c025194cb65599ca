import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The test PostgreSQL on 127.0.0.1:5432 (TEST_DATABASE_URL overrides it): the URL, throwaway
 * schemas and raw SQL. Free of vitest, so scripts can use it too.
 */
const CANDIDATE_URLS = process.env.TEST_DATABASE_URL
  ? [process.env.TEST_DATABASE_URL]
  : ['postgres://root@127.0.0.1:5432/test', 'postgres://postgres@127.0.0.1:5432/test'];

let reachableUrl: Promise<string> | undefined;

/** The first PostgreSQL URL that accepts a connection; fails the test when none does. */
export function postgresUrl(): Promise<string> {
  reachableUrl ??= (async () => {
    const failures: string[] = [];
    for (const url of CANDIDATE_URLS) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      try {
        await client.connect();
        await client.end();
        return url;
      } catch (err) {
        failures.push(`${url}: ${(err as Error).message}`);
        await client.end().catch(() => undefined);
      }
    }
    throw new Error(`no test PostgreSQL reachable (start it: pg_ctlcluster --skip-systemctl-redirect <version> main start):\n${failures.join('\n')}`);
  })();
  return reachableUrl;
}

/** A schema name no other test uses. */
export function randomSchema(): string {
  return `evalflow_test_${randomBytes(6).toString('hex')}`;
}

/** Runs raw SQL on the test PostgreSQL, outside any store (to inspect or sabotage). */
export async function rawPostgres<Row = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: await postgresUrl() });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await rawPostgres(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
