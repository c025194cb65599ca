import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, StoreError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { aRun, aScore, anEvent } from './builders.js';
import { BACKENDS, dropSchema, postgresUrl, randomSchema, storeOptions } from './testBackends.js';
import { migrations } from '../../src/store/migrations/migrations.js';

describe('openStore on postgres: failures never show the password', () => {
  it('names the redacted address when the server is unreachable', async () => {
    const attempt = openStore({ databaseUrl: 'postgres://root:Sup3rS3cret@127.0.0.1:1/test' });
    const failure = await attempt.catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StoreError);
    // A refused connection may work on the next try: retryable, unlike a bad statement.
    expect(failure).toMatchObject({ message: 'store: connect to PostgreSQL at postgres://root:***@127.0.0.1:1/test failed: connect ECONNREFUSED 127.0.0.1:1', retryable: true });
  });

  it('scrubs the password from driver messages and from the cause', async () => {
    // The password doubles as the database name, so the driver's own message would carry it.
    const local = new URL(await postgresUrl());
    const url = `postgres://${local.username}:zzSecret42@${local.host}/zzSecret42`;
    const err: unknown = await openStore({ databaseUrl: url }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toBe(`store: connect to PostgreSQL at postgres://${local.username}:***@${local.host}/*** failed: database "***" does not exist (SQLSTATE 3D000)`);
    const cause = (err as Error).cause as Error;
    expect(`${cause.message}\n${cause.stack ?? ''}`).not.toContain('zzSecret42');
  });

  it('refuses a DATABASE_URL that is not a postgres URL, without echoing it', async () => {
    await expect(openStore({ databaseUrl: 'host=db password=hunter2' })).rejects.toThrow(
      new ConfigError('store: DATABASE_URL is not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database, found a value that does not parse as a URL'),
    );
    await expect(openStore({ databaseUrl: 'mysql://u:hunter2@h/db' })).rejects.toThrow(
      new ConfigError('store: DATABASE_URL is not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database, found a mysql:// URL'),
    );
  });
});

describe.each(BACKENDS)('openStore on %s', (backend) => {
  const schema = randomSchema();
  afterAll(async () => {
    if (backend === 'postgres') await dropSchema(schema);
  });

  it('reports which backend it is', async () => {
    const store = await openStore(await storeOptions(backend, schema));
    try {
      expect(store.backend).toBe(backend);
    } finally {
      await store.close();
    }
  });

  it('a failing query names the operation and the driver message', async () => {
    // Unmigrated on purpose: the tables do not exist.
    const store = await openStore({ ...(await storeOptions(backend, randomSchema())), migrate: false });
    try {
      await expect(store.getRun('run-x')).rejects.toThrow(new StoreError('store: getRun("run-x") failed: relation "runs" does not exist (SQLSTATE 42P01)'));
    } finally {
      await store.close();
    }
  });

  it('after close, operations fail as StoreError and close is idempotent', async () => {
    const store = await openStore(await storeOptions(backend, schema));
    await store.close();
    await store.close();
    await expect(store.getRun('run-x')).rejects.toThrow(/^store: getRun\("run-x"\) failed: /);
    await expect(store.getRun('run-x')).rejects.toBeInstanceOf(StoreError);
  });

  it('refuses a schema name that could not go into SQL unquoted', async () => {
    for (const bad of ['Runs', 'a-b', 'x; DROP TABLE runs', 'pg_temp', '1abc']) {
      await expect(openStore({ ...(await storeOptions(backend, 'unused')), schema: bad })).rejects.toThrow(
        new ConfigError(
          `store: schema ${JSON.stringify(bad)} is not allowed: expected lower-case letters, digits and _ (not starting with a digit or pg_), at most 63 characters`,
        ),
      );
    }
  });
});

describe('openStore with a PGlite data dir', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evalflow-store-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps runs, transcripts and scores across close and reopen', async () => {
    const dataDir = join(root, 'persist', 'pglite');
    const first = await openStore({ pgliteDir: dataDir, schema: 'team_a' });
    await first.upsertRun(aRun({ run_id: 'run-kept' }));
    await first.appendTranscriptEvents([anEvent({ run_id: 'run-kept', content: 'hello' })]);
    await first.saveScore('run-kept', aScore({ judged_at: '2026-03-01T00:00:00Z' }));
    await first.close();

    const second = await openStore({ pgliteDir: dataDir, schema: 'team_a' });
    try {
      expect(await second.migrate()).toEqual({ applied: [], current: migrations.at(-1)!.version });
      expect(await second.getRun('run-kept')).toMatchObject({ run_id: 'run-kept', result: 'pass' });
      expect((await second.getTranscript('run-kept')).map((e) => e.content)).toEqual(['hello']);
      expect(await second.getScore('run-kept')).toMatchObject({ overall: 3.75 });
    } finally {
      await second.close();
    }
  });

  it('lets only one store open a data dir at a time, and frees it at close', async () => {
    const dataDir = join(root, 'locked');
    const first = await openStore({ pgliteDir: dataDir });
    try {
      await expect(openStore({ pgliteDir: dataDir })).rejects.toThrow(
        new StoreError(
          `store: PGlite data dir ${dataDir} is already open by this process (lock file ${dataDir}.lock); share one Store in-process`,
        ),
      );
    } finally {
      await first.close();
    }
    const again = await openStore({ pgliteDir: dataDir });
    await again.close();
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = join(root, 'stale');
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: Number(stdout), host: hostname(), since: '2026-01-01T00:00:00Z' }));
    const store = await openStore({ pgliteDir: dataDir });
    await store.close();
  });
});
