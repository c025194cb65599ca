import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../scripts/bundle-cli.js';
import * as errors from '../src/errors.js';

const ROOT = resolve(import.meta.dirname, '..');
const HEAVY = ['/node_modules/@temporalio/', '/node_modules/@electric-sql/pglite/', '/node_modules/openai/', '/node_modules/pg/', '/node_modules/execa/'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-imports-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI from source (or the given entry, e.g. a bundle) and returns every module it loaded. */
async function modulesLoadedBy(args: string[], entry: string[] = ['--import', 'tsx', '--import', './test/support/importTrace.mjs', 'src/client.ts']): Promise<{ modules: string[]; stdout: string }> {
  const trace = join(dir, `${args[0]}-${Math.random().toString(36).slice(2)}.txt`);
  const { stdout } = await promisify(execFile)(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, EVALFLOW_IMPORT_TRACE: trace },
  });
  return { modules: (await readFile(trace, 'utf8')).split('\n').filter(Boolean), stdout };
}

const QUICK_COMMANDS = [[['--help']], [['validate', 'eval_sets']], [['ep', 'read', 'test/fixtures/editprediction/zed-evals/codex-acp--add-derive.md']]];

describe('CLI start-up loads only what the command uses', () => {
  it.each(QUICK_COMMANDS)('%j loads nothing of Temporal, the store drivers, execa or the model client', async (args) => {
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

describe('the bundled CLI (what `npm run build` puts in dist/cli/)', () => {
  // Inside the repository, so that the externals resolve from its node_modules as in dist/.
  let outdir: string;
  let metafile: Metafile;
  beforeAll(async () => {
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    outdir = await mkdtemp(join(ROOT, 'node_modules/.cache/evalflow-cli-'));
    metafile = await bundleCli(outdir);
  }, 120_000);
  afterAll(async () => {
    if (outdir) await rm(outdir, { recursive: true, force: true });
  });

  /** The sources (src/… and node_modules/… paths) inside the bundle files a command loaded. */
  function bundledInputs(modules: string[]): string[] {
    const outputs = modules.filter((url) => url.startsWith(pathToFileURL(outdir).href)).map((url) => relative(ROOT, fileURLToPath(url)));
    return outputs.flatMap((output) => Object.keys(metafile.outputs[output]?.inputs ?? {}));
  }

  it.each(QUICK_COMMANDS)('%j loads its dependencies from the bundle, and of evalflow only what it loads from source', async (args) => {
    const { modules, stdout } = await modulesLoadedBy(args, ['--import', './test/support/importTrace.mjs', join(outdir, 'client.js')]);
    expect(modules.filter((url) => url.includes('/node_modules/') && !url.startsWith(pathToFileURL(outdir).href))).toEqual([]);
    const inputs = bundledInputs(modules);
    expect(inputs.some((input) => input.startsWith('node_modules/commander/'))).toBe(true);
    // A chunk that held more than the command uses would bring in sources it never imports.
    const fromSource = new Set((await modulesLoadedBy(args)).modules.filter((url) => url.startsWith('file:')).map((url) => relative(ROOT, fileURLToPath(url))));
    expect(inputs.filter((input) => input.startsWith('src/') && !fromSource.has(input))).toEqual([]);
    // zod's locales are left out of the bundle but English, its default.
    expect(inputs.filter((input) => input.startsWith('node_modules/zod/v4/locales/') && !input.endsWith('/en.js'))).toEqual([]);
    expect(stdout.length).toBeGreaterThan(0);
  }, 60_000);

  it('--help does not load zod', async () => {
    const { modules } = await modulesLoadedBy(['--help'], ['--import', './test/support/importTrace.mjs', join(outdir, 'client.js')]);
    expect(bundledInputs(modules).filter((input) => input.startsWith('node_modules/zod/'))).toEqual([]);
  }, 60_000);

  it("bundles pg with its Cloudflare probe answered at build time, so loading it never loads Node's fetch", async () => {
    const [chunk] = Object.entries(metafile.outputs).filter(([output, { inputs }]) => output.endsWith('.js') && Object.keys(inputs).some((input) => input.endsWith('node_modules/pg/lib/stream.js')));
    expect(chunk).toBeDefined();
    const code = await readFile(resolve(ROOT, chunk![0]), 'utf8');
    expect(code).toContain('function isCloudflareRuntime');
    expect(code).not.toContain("typeof Response === 'function'");
  });

  it('keeps the error classes\' names, which are the failure types workflows match on', async () => {
    const [chunk] = Object.entries(metafile.outputs).filter(([output, { inputs }]) => output.endsWith('.js') && 'src/errors.ts' in inputs);
    expect(chunk).toBeDefined();
    const bundled = (await import(pathToFileURL(resolve(ROOT, chunk![0])).href)) as Record<string, unknown>;
    const names = (exports: Record<string, unknown>) => Object.values(exports).flatMap((value) => (typeof value === 'function' && value.prototype instanceof Error ? [value.name] : []));
    expect(names(bundled).sort()).toEqual(names(errors).sort());
  });
});
