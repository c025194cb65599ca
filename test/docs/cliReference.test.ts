import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE, cliReference } from '../../scripts/cli-reference.js';

describe('docs/cli.md, the CLI reference', () => {
  it('is what the declared commands print: run `npm run docs:cli` after changing a command or flag', async () => {
    expect(await readFile(CLI_REFERENCE, 'utf8')).toBe(await cliReference());
  });

  it('holds every command and subcommand with its flags, and importing the CLI ran none of them', async () => {
    const page = await cliReference();
    for (const heading of ['## evalflow run', '## evalflow schedule create', '## evalflow schedule backfill', '## evalflow candidates normalize', '## evalflow ep']) expect(page).toContain(`\n${heading}\n`);
    expect(page).toContain('--catchup-window <duration>');
    expect(page).toContain('schedule name (lowercase letters, digits, - _ .), e.g. nightly-main');
    expect(process.exitCode ?? 0).toBe(0);
  });
});
