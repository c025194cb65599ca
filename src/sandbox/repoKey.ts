import { createHash } from 'node:crypto';

/** A short, fixed name for a project repository's folders under the sandbox root (its pool, its bases). */
export function repoKey(repoDir: string): string {
  return createHash('sha256').update(repoDir).digest('hex').slice(0, 16);
}
