import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The copied Zed eval corpus (19 Markdown examples). */
export const CORPUS_DIR = fileURLToPath(new URL('../fixtures/editprediction/zed-evals/', import.meta.url));

/** Write path→content fixtures into a fresh temporary directory and return it. */
export async function writeFixtures(files: Record<string, string>, prefix = 'evalflow-ep-'): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, 'utf8');
  }
  return root;
}
