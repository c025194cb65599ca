import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const HEAVY = ['/node_modules/@temporalio/', '/node_modules/@electric-sql/pglite/', '/node_modules/openai/', '/node_modules/pg/', '/node_modules/execa/'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-imports-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI from source and returns every module it loaded. */
async function modulesLoadedBy(args: string[]): Promise<{ modules: string[]; stdout: string }> {
  const trace = join(dir, `${args[0]}-${Math.random().toString(36).slice(2)}.txt`);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--import', './test/support/importTrace.mjs', 'src/client.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, EVALFLOW_IMPORT_TRACE: trace },
  });
  return { modules: (await readFile(trace, 'utf8')).split('\n').filter(Boolean), stdout };
}

describe('CLI start-up loads only what the command uses', () => {
  it.each([
    [['--help']],
    [['validate', 'eval_sets']],
    [['ep', 'read', 'test/fixtures/editprediction/zed-evals/codex-acp--add-derive.md']],
  ])('%j loads nothing of Temporal, the store drivers, execa or the model client', async (args) => {
    const { modules, stdout } = await modulesLoadedBy(args);
    expect(modules.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(modules.filter((url) => HEAVY.some((heavy) => url.includes(heavy)))).toEqual([]);
    expect(stdout.length).toBeGreaterThan(0);
  }, 60_000);

  it('--help does not even load zod', async () => {
    const { modules } = await modulesLoadedBy(['--help']);
    expect(modules.filter((url) => url.includes('/node_modules/zod/'))).toEqual([]);
  }, 60_000);
});
