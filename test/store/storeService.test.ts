import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStore, serviceSocketPath, type StoreService } from '../../src/store/storeService.js';

/** A PGlite in this process, served on a socket, reached by `pg` clients as other commands reach it. */
describe('serveStore', () => {
  let root: string;
  let db: PGlite;
  let service: StoreService;
  const pools: pg.Pool[] = [];
  const client = () => {
    const pool = new pg.Pool({ connectionString: `postgresql://postgres@${encodeURIComponent(dirname(service.socketPath))}/postgres`, max: 4 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evalflow-service-'));
    db = await PGlite.create();
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, v text)');
    service = await serveStore(db, serviceSocketPath(join(root, 'pglite'), join(root, 'store-service'))!);
  }, 120_000);
  afterAll(async () => {
    for (const pool of pools) await pool.end().catch(() => undefined);
    await service.close();
    await db.close();
    await rm(root, { recursive: true, force: true });
  });

  it('puts its socket, 0600, in a folder only this user can enter', async () => {
    expect((await stat(service.socketPath)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(service.socketPath))).mode & 0o777).toBe(0o700);
    expect((await stat(dirname(dirname(service.socketPath)))).mode & 0o777).toBe(0o700);
  });

  it('answers parameterised queries and loses no write from two clients writing at once', async () => {
    const [a, b] = [client(), client()];
    const writes = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).query('INSERT INTO t VALUES ($1, $2)', [i, `v${i}`]));
    await Promise.all(writes);
    expect((await a.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id < 40')).rows).toEqual([{ n: 40 }]);
    expect((await db.query<{ v: string }>('SELECT v FROM t WHERE id = 39')).rows).toEqual([{ v: 'v39' }]);
  });

  it("keeps a client's transaction to itself: the holder's own queries wait until it commits", async () => {
    const connection = await client().connect();
    try {
      await connection.query('BEGIN');
      await connection.query('INSERT INTO t VALUES (100, $1)', ['in tx']);
      let holderSaw: number | undefined;
      const holderRead = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 100').then((r) => (holderSaw = r.rows[0]!.n));
      await new Promise((wait) => setTimeout(wait, 300));
      expect(holderSaw).toBeUndefined();
      await connection.query('COMMIT');
      await holderRead;
      expect(holderSaw).toBe(1);
    } finally {
      connection.release();
    }
  });

  it('rolls back the transaction of a client that disconnects inside it, and serves the next', async () => {
    const pool = client();
    const connection = await pool.connect();
    await connection.query('BEGIN');
    await connection.query('INSERT INTO t VALUES (200, $1)', ['abandoned']);
    connection.release(new Error('drop it'));
    expect((await client().query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE id = 200')).rows).toEqual([{ n: 0 }]);
    expect((await db.query<{ tx: boolean }>('SELECT 1 AS tx')).rows).toHaveLength(1);
  });

  it('reports a failed statement to its client only, leaving the session usable', async () => {
    const pool = client();
    await expect(pool.query('INSERT INTO t VALUES (1, $1)', ['duplicate'])).rejects.toMatchObject({ code: '23505' });
    expect((await pool.query<{ v: string }>('SELECT v FROM t WHERE id = 1')).rows).toEqual([{ v: 'v1' }]);
    expect(db.isInTransaction()).toBe(false);
  });
});

describe('serviceSocketPath', () => {
  it('is under the service folder, keyed by data dir, and falls back to a private temp folder when too long', () => {
    const short = serviceSocketPath('/home/u/.evalflow/pglite', '/home/u/.evalflow/store-service')!;
    expect(short).toMatch(/^\/home\/u\/\.evalflow\/store-service\/[0-9a-f]{12}\/\.s\.PGSQL\.5432$/);
    expect(serviceSocketPath('/home/u/other/pglite', '/home/u/.evalflow/store-service')).not.toBe(short);
    const long = serviceSocketPath('/x/pglite', `/${'d'.repeat(120)}`)!;
    expect(long.startsWith(join(tmpdir(), 'evalflow-'))).toBe(true);
  });
});
