import { stat } from 'node:fs/promises';

/**
 * What is at `target`, worded to follow "found" in a problem line: `a folder`, `a file`,
 * `no such file or folder`, or a path that cannot be read.
 */
export async function describePath(target: string): Promise<string> {
  try {
    return (await stat(target)).isDirectory() ? FOLDER : 'a file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent on the way is a file, so there is nothing at the path either.
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file or folder';
    return `a path that cannot be read (${code ?? (error as Error).message})`;
  }
}

export const FOLDER = 'a folder';
