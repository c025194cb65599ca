import { afterAll, beforeAll } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { OpenStoreOptions, Store } from '../../src/store/index.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';

export { dropSchema, postgresUrl, randomSchema, rawPostgres } from '../support/postgres.js';

/**
 * Every store test runs against both backends: embedded PGlite (in memory) and the real
 * PostgreSQL on 127.0.0.1:5432, each test file in a fresh random schema dropped at the end.
 * TEST_DATABASE_URL overrides the PostgreSQL address.
 */
export const BACKENDS = ['pglite', 'postgres'] as const;
export type BackendName = (typeof BACKENDS)[number];

/** Options opening `backend`: in-memory PGlite, or PostgreSQL in `schema`. */
export async function storeOptions(backend: BackendName, schema: string): Promise<OpenStoreOptions> {
  return backend === 'postgres' ? { databaseUrl: await postgresUrl(), schema } : { schema };
}

/**
 * Opens one store for the enclosing describe block (beforeAll) and closes it, dropping its
 * PostgreSQL schema, afterwards. Returns a getter for the store.
 */
export function useStore(backend: BackendName): () => Store {
  const schema = randomSchema();
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openStore(await storeOptions(backend, schema));
  });
  afterAll(async () => {
    await store?.close();
    if (backend === 'postgres') await dropSchema(schema);
  });
  return () => {
    if (!store) throw new Error('store not open: useStore() getter called outside a test');
    return store;
  };
}
