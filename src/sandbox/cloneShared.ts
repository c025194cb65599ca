import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { git } from './git.js';

/** A clone borrowing `repoDir`'s objects (`git clone --shared`), with no files checked out yet. */
export async function cloneShared(repoDir: string, dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  await git(dirname(dir), ['clone', '-q', '--shared', '--no-checkout', repoDir, dir]);
}
