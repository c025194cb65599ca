// Writes docs/cli.md, the CLI reference, from the commands declared in src/client.ts (each
// command's --help). `npm run docs:cli` runs it; test/docs/cliReference.test.ts fails when the
// page is stale.
//
//   node --import tsx scripts/cli-reference.ts
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DESCRIBE_ONLY, renderCliReference } from '../src/cliReference.js';

const ROOT = resolve(import.meta.dirname, '..');
export const CLI_REFERENCE = resolve(ROOT, 'docs/cli.md');

/** The page as the current code declares the commands. */
export async function cliReference(): Promise<string> {
  (globalThis as Record<symbol, unknown>)[DESCRIBE_ONLY] = true;
  const { program } = await import('../src/client.js');
  return renderCliReference(program);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await writeFile(CLI_REFERENCE, await cliReference());
  console.log('docs/cli.md: written');
}
