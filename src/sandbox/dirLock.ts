import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

/** A lock older than this was left by a holder that died mid-way (a fetch takes minutes at most). */
const STALE_AFTER_MS = 30 * 60 * 1000;
const POLL_MS = 100;

/**
 * Runs `work` holding the lock folder `lockDir` (made with mkdir, which only one process wins),
 * so processes of one host sharing a state folder do it one at a time. A lock whose holder on
 * this host is gone, or that is older than half an hour, is taken over.
 */
export async function withDirLock<T>(lockDir: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await isStale(lockDir)) await rm(lockDir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  try {
    await writeFile(join(lockDir, 'holder'), JSON.stringify({ pid: process.pid, host: hostname() }));
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

async function isStale(lockDir: string): Promise<boolean> {
  const made = await stat(lockDir).catch(() => null);
  if (!made) return false;
  if (Date.now() - made.mtimeMs > STALE_AFTER_MS) return true;
  const holder = await readFile(join(lockDir, 'holder'), 'utf8').then((text) => JSON.parse(text) as { pid: number; host: string }).catch(() => null);
  // Not written yet: the holder made the folder a moment ago.
  if (!holder || holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
