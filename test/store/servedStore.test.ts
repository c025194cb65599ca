import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { startCli, startTsProcess, type CliProcess } from '../support/cliProcess.js';

const HOLDER = resolve(import.meta.dirname, '../support/holdStore.ts');

/** `evalflow <args>` to its end: exit code and output. */
async function evalflow(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; cli: CliProcess }> {
  const cli = startCli(args, { cwd, env });
  cli.child.stdin?.end();
  return { code: await cli.exited, cli };
}

function startHolder(cwd: string, env: NodeJS.ProcessEnv): CliProcess {
  return startTsProcess(HOLDER, [], { cwd, env });
}

/**
 * One process holds the embedded store (as a worker running a batch does); every other
 * command, each in its own process, reads and writes through it instead of being refused.
 */
describe('the embedded store, held by another process', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let holder: CliProcess;

  beforeAll(async () => {
    root = await tempDir('evalflow-served-');
    env = { ...process.env, EVALFLOW_HOME: join(root, '.evalflow') };
    delete env.DATABASE_URL;
    holder = startHolder(root, env);
    await holder.waitForLine(/^holding \d+$/, 240_000);
  }, 300_000);
  afterAll(async () => {
    if (holder.child.exitCode === null && holder.child.signalCode === null) {
      holder.kill('SIGTERM');
      await holder.exited;
    }
  });

  it('answers runs, batches and show, and lands two bless writes made at once', async () => {
    const [runs, batches, show, blessA, blessB] = await Promise.all([
      evalflow(['runs', '--batch', 'batch-held'], root, env),
      evalflow(['batches'], root, env),
      evalflow(['show', 'run-held-2'], root, env),
      evalflow(['bless', 'batch-held', '--schedule', 'nightly-a'], root, env),
      evalflow(['bless', 'batch-held', '--schedule', 'nightly-b'], root, env),
    ]);
    expect(runs.code, runs.cli.lines.join('\n')).toBe(0);
    expect(runs.cli.stdout.filter((line) => /run-held-\d/.test(line))).toHaveLength(3);
    expect(batches.code, batches.cli.lines.join('\n')).toBe(0);
    expect(batches.cli.stdout.some((line) => line.includes('batch-held'))).toBe(true);
    expect(show.code, show.cli.lines.join('\n')).toBe(0);
    expect(show.cli.stdout.join('\n')).toContain('run-held-2');
    expect(blessA.code, blessA.cli.lines.join('\n')).toBe(0);
    expect(blessB.code, blessB.cli.lines.join('\n')).toBe(0);
    expect(blessA.cli.stdout).toEqual(['schedule nightly-a: baseline batch-held']);

    // Read back through the holder as well, from this process.
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      expect(store.servedBy).toBe(`process ${holder.pid} (holdStore) on ${hostname()}`);
      expect(await store.getBaseline('nightly-a')).toMatchObject({ batch_id: 'batch-held' });
      expect(await store.getBaseline('nightly-b')).toMatchObject({ batch_id: 'batch-held' });
    } finally {
      await store.close();
    }
  }, 300_000);

  it('a connected client takes the store over when the holder dies, and serves the next command', async () => {
    const settings = await loadSettings(root, env);
    const connected = await openStore(storeOptions(settings));
    try {
      expect(connected.servedBy).toBe(`process ${holder.pid} (holdStore) on ${hostname()}`);
      expect(await connected.getRun('run-held-1')).toMatchObject({ run_id: 'run-held-1' });
      holder.kill('SIGKILL');
      await holder.exited;
      // The next operation finds the holder gone, takes the lock, opens PGlite here and goes on.
      expect(await connected.getRun('run-held-1')).toMatchObject({ run_id: 'run-held-1' });
      expect(connected.servedBy).toBeNull();
      const lock = JSON.parse(await readFile(join(root, '.evalflow', 'pglite.lock'), 'utf8')) as { pid: number };
      expect(lock.pid).toBe(process.pid);

      const after = await evalflow(['runs', '--batch', 'batch-held'], root, env);
      expect(after.code, after.cli.lines.join('\n')).toBe(0);
      expect(after.cli.stdout.filter((line) => /run-held-\d/.test(line))).toHaveLength(3);
    } finally {
      await connected.close();
    }
  }, 300_000);
});

describe('an embedded store whose holder does not serve it', () => {
  it('refuses with exit 75 and one line naming the holder and what to do', async () => {
    const root = await tempDir('evalflow-busy-');
    const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(root, '.evalflow') };
    delete env.DATABASE_URL;
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    try {
      // A holder of an earlier evalflow: alive, and no socket in its lock.
      await mkdir(join(root, '.evalflow'), { recursive: true });
      await writeFile(join(root, '.evalflow', 'pglite.lock'), JSON.stringify({ pid: sleeper.pid, host: hostname(), command: 'evalflow worker' }));
      const busy = await evalflow(['runs'], root, env);
      expect(busy.code).toBe(75);
      expect(busy.cli.stderr).toEqual([
        `error: store: the embedded store ${join(root, '.evalflow', 'pglite')} is held by process ${sleeper.pid} (evalflow worker) on ${hostname()}, which does not serve it to other commands; run this command again once it has finished (or stop it), or set DATABASE_URL to share a PostgreSQL`,
      ]);
    } finally {
      sleeper.kill();
    }
  }, 120_000);
});
