import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { packageRoot } from '../packageRoot.js';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * The workflow code as one bundle, made once per process and cached on disk between
 * processes (`~/.cache/evalflow/workflow-bundles`, keyed by a hash of evalflow's sources and
 * the SDK's version): bundling takes a second or more, and a worker that starts again after
 * a crash should take work at once. From dist/ after a build, from src/ under tsx and vitest.
 */
export function workflowBundle(env: NodeJS.ProcessEnv = process.env): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= cachedBundle(env);
  return bundle;
}

async function cachedBundle(env: NodeJS.ProcessEnv): Promise<WorkflowBundleWithSourceMap> {
  const workflowsPath = workflowsEntry();
  const sources = dirname(dirname(workflowsPath));
  const cacheDir = join(env.EVALFLOW_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'evalflow'), 'workflow-bundles');
  const file = join(cacheDir, `${await sourcesHash(sources)}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as WorkflowBundleWithSourceMap;
  } catch {
    // not cached yet, or unreadable: bundle and cache it
  }
  const made = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  try {
    await mkdir(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ code: made.code, sourceMap: made.sourceMap }));
    await rename(tmp, file);
  } catch {
    // a read-only cache only costs the next start a second
  }
  return made;
}

/**
 * The workflows beside the code that runs: compiled ones when it runs from dist/ (tsc's output,
 * or the bundled CLI's chunks in dist/cli/), the sources under tsx and vitest.
 */
function workflowsEntry(): string {
  const root = packageRoot();
  const compiled = join(root, 'dist/workflows/index.js');
  return fileURLToPath(import.meta.url).startsWith(join(root, 'dist') + sep) && existsSync(compiled) ? compiled : join(root, 'src/workflows/index.ts');
}

/** sha256 over every source file below `root` and the SDK version: any change makes a new bundle. */
async function sourcesHash(root: string): Promise<string> {
  const hash = createHash('sha256');
  const sdkPackage = createRequire(import.meta.url).resolve('@temporalio/workflow/package.json');
  const sdk = JSON.parse(await readFile(sdkPackage, 'utf8')) as { version?: string };
  hash.update(`sdk ${sdk.version ?? 'unknown'}\n`);
  const walk = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (/\.(ts|js|mjs|json)$/.test(entry.name)) hash.update(relative(root, path)).update('\0').update(await readFile(path)).update('\0');
    }
  };
  await walk(root);
  return hash.digest('hex').slice(0, 24);
}
