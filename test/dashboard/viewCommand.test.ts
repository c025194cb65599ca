import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/view.js';
import { StoreError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { dropSchema, postgresUrl, randomSchema, rawPostgres } from '../support/postgres.js';

/** `evalflow view` opens the store without migrating it, so a store of another schema version is refused, not changed. */
describe('evalflow view on a store of another schema version', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  const viewOn = async (schema: string) => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), cwd: await tempDir('evalflow-view-cmd-'), env: { DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema } };
    return run({ port: 0 }, io).catch((err: unknown) => err);
  };

  it('a newer store: names both versions', async () => {
    const schema = randomSchema();
    schemas.push(schema);
    const store = await openStore({ databaseUrl: await postgresUrl(), schema });
    const { known } = await store.schemaVersion();
    await store.close();
    await rawPostgres(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, 'from_the_future')`, [known + 1]);
    const error = await viewOn(schema);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe(`the store has schema version ${known + 1}, newer than this evalflow's ${known}; view it with the evalflow that wrote it (or upgrade)`);
  });

  it('an older store: says how to migrate it, and leaves it as it is', async () => {
    const schema = randomSchema();
    schemas.push(schema);
    await rawPostgres(`CREATE SCHEMA ${schema}`);
    await rawPostgres(`CREATE TABLE ${schema}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await rawPostgres(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES (1, 'runs_and_batches')`);
    const error = await viewOn(schema);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(/^the store has schema version 1, this evalflow reads version \d+; run any evalflow command that writes/);
    expect(await rawPostgres(`SELECT version FROM ${schema}.schema_migrations`)).toEqual([{ version: 1 }]);
  });
});
