import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDirLock } from '../../src/sandbox/dirLock.js';
import { tempDir } from './sandboxFixture.js';

describe('withDirLock', () => {
  it('lets one holder work at a time, and takes over a lock whose holder on this host is gone', async () => {
    const lock = join(await tempDir('evalflow-lock-'), 'x.lock');
    let inside = 0;
    let most = 0;
    const work = async () => {
      inside += 1;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 30));
      inside -= 1;
    };
    await Promise.all([withDirLock(lock, work), withDirLock(lock, work), withDirLock(lock, work)]);
    expect(most).toBe(1);
    // A holder that died: a pid no process has.
    await mkdir(lock);
    await writeFile(join(lock, 'holder'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() }));
    expect(await withDirLock(lock, async () => 'taken over')).toBe('taken over');
  });
});
