import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { JSON_OUTPUTS } from '../../src/cli/json/index.js';
import { DESCRIBE_ONLY } from '../../src/cliReference.js';
import { JSON_REFERENCE, jsonReference } from '../../scripts/json-reference.js';

/** Every command declared in src/client.ts that takes --json, by full name. */
async function commandsWithJson(): Promise<string[]> {
  (globalThis as Record<symbol, unknown>)[DESCRIBE_ONLY] = true;
  const { program } = await import('../../src/client.js');
  const walk = (command: Command, parent: string): string[] => {
    const name = parent ? `${parent} ${command.name()}` : command.name();
    return [...(command.options.some((o) => o.long === '--json') ? [name] : []), ...command.commands.flatMap((sub) => walk(sub, name))];
  };
  return walk(program, '');
}

describe('docs/json.md, the --json reference', () => {
  it('is what the schemas describe: run `npm run docs:json` after changing one', async () => {
    expect(await readFile(JSON_REFERENCE, 'utf8')).toBe(jsonReference());
  });

  it('has a section, and a schema, for every command that takes --json, and none for a command without it', async () => {
    const page = await readFile(JSON_REFERENCE, 'utf8');
    const commands = await commandsWithJson();
    expect(commands.length).toBeGreaterThanOrEqual(11);
    const sections = [...page.matchAll(/^## (evalflow .+)$/gm)].map((m) => m[1]);
    expect(sections.sort()).toEqual([...commands].sort());
    expect(JSON_OUTPUTS.map((o) => o.command).sort()).toEqual([...commands].sort());
    for (const command of commands) expect(page).toMatch(new RegExp(`## ${command}\\n[^#]+\\| \`schema_version\` \\| \`1\` \\|`));
  });

  it('gives every field a meaning (a `.describe()` in its schema)', async () => {
    const rows = (await readFile(JSON_REFERENCE, 'utf8')).split('\n').filter((line) => line.startsWith('| `'));
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.filter((row) => /\|\s*\|$/.test(row))).toEqual([]);
  });

  it('is linked from the README and docs/cli.md', async () => {
    expect(await readFile(new URL('../../README.md', import.meta.url), 'utf8')).toContain('[docs/json.md](docs/json.md)');
    expect(await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8')).toContain('[json.md](json.md)');
  });
});
