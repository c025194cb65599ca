import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { claimPgliteDir, describeHolder } from '../../src/store/pgliteLock.js';

describe('claimPgliteDir', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evalflow-lock-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const lockOf = async (dataDir: string, socket?: string) => {
    const claim = await claimPgliteDir(dataDir, socket);
    if (!('lock' in claim)) throw new Error(`expected the lock, found holder ${JSON.stringify(claim.holder)}`);
    return claim.lock;
  };

  it('writes its holder and socket, refuses this process a second time, and frees the dir on release', async () => {
    const dataDir = join(root, 'a');
    const lock = await lockOf(dataDir, '/some/dir/.s.PGSQL.5432');
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), socket: '/some/dir/.s.PGSQL.5432' });
    await expect(claimPgliteDir(dataDir)).rejects.toThrow(
      new StoreError(`store: PGlite data dir ${dataDir} is already open by this process (lock file ${dataDir}.lock); share one Store in-process`),
    );
    await lock.release();
    await lock.release();
    const again = await lockOf(dataDir);
    await again.release();
  });

  it('names another live holder and its socket instead of taking the lock', async () => {
    const dataDir = join(root, 'b');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: child.pid, host: hostname(), command: 'evalflow worker', socket: '/s/.s.PGSQL.5432' }));
      const claim = await claimPgliteDir(dataDir);
      expect(claim).toEqual({ holder: { pid: child.pid, host: hostname(), command: 'evalflow worker', socket: '/s/.s.PGSQL.5432' } });
      expect(describeHolder((claim as { holder: Parameters<typeof describeHolder>[0] }).holder)).toBe(`process ${child.pid} (evalflow worker) on ${hostname()}`);
    } finally {
      child.kill();
    }
  });

  it('treats a lock from another host as held, since it cannot be checked', async () => {
    const dataDir = join(root, 'c');
    await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: 1, host: 'some-other-host' }));
    expect(await claimPgliteDir(dataDir)).toEqual({ holder: { pid: 1, host: 'some-other-host' } });
  });

  it('takes over an unreadable lock file', async () => {
    const dataDir = join(root, 'd');
    await writeFile(`${dataDir}.lock`, 'not json');
    const lock = await lockOf(dataDir);
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('lets exactly one of many claims at once take over a lock whose holder died', async () => {
    const dataDir = join(root, 'e');
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((done) => dead.once('exit', done));
    await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: dead.pid, host: hostname(), command: 'evalflow worker', socket: '/s/.s.PGSQL.5432' }));
    // As when a holder dies and every process it served claims the store in the same moment.
    const claims = await Promise.allSettled(Array.from({ length: 20 }, () => claimPgliteDir(dataDir)));
    const won = claims.filter((claim) => claim.status === 'fulfilled' && 'lock' in claim.value);
    expect(won).toHaveLength(1);
    // The others find it held, by this very process here.
    for (const claim of claims) {
      if (claim.status === 'rejected') expect((claim.reason as Error).message).toContain('is already open by this process');
    }
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await (won[0] as PromiseFulfilledResult<{ lock: { release(): Promise<void> } }>).value.lock.release();
    expect(existsSync(`${dataDir}.lock.takeover`)).toBe(false);
  });
});
