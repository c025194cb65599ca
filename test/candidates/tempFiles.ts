import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProcessExit, StreamNormalizer } from '../../src/candidates/adapter.js';

/** Write a path→content fixture into a fresh temp dir; paths ending in `.sh` or under `bin/` are executable. */
export async function writeTempFiles(files: Record<string, string>, prefix = 'evalflow-candidates-'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    if (path.endsWith('.sh') || path.startsWith('bin/')) await chmod(full, 0o755);
  }
  return root;
}

/** Feed lines to a normaliser and end it; returns every event in order plus the outcome. */
export function normalizeLines(normalizer: StreamNormalizer, lines: (string | object)[], exit: ProcessExit = { exitCode: 0, stderrTail: '' }) {
  const events = lines.flatMap((line) => normalizer.push(typeof line === 'string' ? line : JSON.stringify(line)));
  const outcome = normalizer.end(exit);
  return { events: [...events, ...outcome.events], outcome };
}
