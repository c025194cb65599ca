import { sep } from 'node:path';

/** Whether `path` is `dir` or below it (both absolute, as the kernel shows them). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}
