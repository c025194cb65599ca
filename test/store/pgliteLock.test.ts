import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { acquirePgliteLock } from '../../src/store/pgliteLock.js';

describe('acquirePgliteLock', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evalflow-lock-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const held = (dataDir: string, who: string) =>
    new StoreError(
      `store: PGlite data dir ${dataDir} is already open by ${who} (lock file ${dataDir}.lock); PGlite allows one process per data dir: share one Store in-process, or set DATABASE_URL to use PostgreSQL`,
    );

  it('writes its holder, refuses a second taker, and frees the dir on release', async () => {
    const dataDir = join(root, 'a');
    const lock = await acquirePgliteLock(dataDir);
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await expect(acquirePgliteLock(dataDir)).rejects.toThrow(held(dataDir, 'this process'));
    await lock.release();
    await lock.release();
    const again = await acquirePgliteLock(dataDir);
    await again.release();
  });

  it('refuses a lock held by another live process, naming it', async () => {
    const dataDir = join(root, 'b');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: child.pid, host: hostname() }));
      await expect(acquirePgliteLock(dataDir)).rejects.toThrow(held(dataDir, `process ${child.pid} on ${hostname()}`));
    } finally {
      child.kill();
    }
  });

  it('treats a lock from another host as held, since it cannot be checked', async () => {
    const dataDir = join(root, 'c');
    await writeFile(`${dataDir}.lock`, JSON.stringify({ pid: 1, host: 'some-other-host' }));
    await expect(acquirePgliteLock(dataDir)).rejects.toThrow(held(dataDir, 'process 1 on some-other-host'));
  });

  it('takes over an unreadable lock file', async () => {
    const dataDir = join(root, 'd');
    await writeFile(`${dataDir}.lock`, 'not json');
    const lock = await acquirePgliteLock(dataDir);
    expect(JSON.parse(await readFile(`${dataDir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});
