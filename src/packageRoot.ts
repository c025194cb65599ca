import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The evalflow package's folder: the nearest one above `from` (this module) that holds a
 * package.json. Found by walking up, not by a fixed `../..`, because this code runs at several
 * depths: from src/ (tsx, vitest), from dist/ (tsc's output) and from the bundled CLI's chunks
 * in dist/cli/.
 */
export function packageRoot(from: string = import.meta.url): string {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(from)}`);
  }
}
