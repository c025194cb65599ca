// suite group: beside (most of it waits for services to linger and leave)
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { currentHolder, isAlive, type LockHolder } from '../../src/store/pgliteLock.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { startCli, startTsProcess, type CliProcess } from '../support/cliProcess.js';
import { freePort } from '../support/temporalServer.js';

const QUIET_CLIENT = resolve(import.meta.dirname, '../support/quietStoreClient.ts');

/**
 * Look-ups on a free embedded store start a lingering store service and are served by it
 * (src/store/startLingeringService.ts, lingeringService.ts): real CLI processes, PGlite on
 * disk, no Temporal. Every test stops the service it started.
 */
describe('the lingering store service', () => {
  let root: string;
  let home: string;
  let dataDir: string;
  let logFile: string;
  const started: CliProcess[] = [];

  const env = (linger: string): NodeJS.ProcessEnv => {
    const vars: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: home, EVALFLOW_STORE_LINGER: linger };
    delete vars.DATABASE_URL;
    return vars;
  };
  const cli = (args: string[], linger: string): CliProcess => {
    const child = startCli(args, { cwd: root, env: env(linger) });
    started.push(child);
    return child;
  };
  /** Runs a look-up to its end; its exit code and what it printed. */
  const lookUp = async (linger: string, args = ['batches']) => {
    const child = cli(args, linger);
    return { code: await child.exited, output: child.lines.join('\n'), pid: child.pid };
  };
  const holder = async (): Promise<LockHolder | null> => {
    const now = await currentHolder(dataDir);
    return typeof now === 'object' ? now : null;
  };
  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`not ${what} within ${timeoutMs} ms; log:\n${await readLog()}`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  };
  const readLog = async (): Promise<string> => (existsSync(logFile) ? readFile(logFile, 'utf8') : '');
  const servingLines = async (): Promise<number> => (await readLog()).split('\n').filter((line) => /: serving /.test(line)).length;
  /** Stops whatever holds the store (a service these tests started) and waits until it has let go. */
  const stopHolder = async (): Promise<void> => {
    const now = await holder();
    if (now && isAlive(now)) process.kill(now.pid, 'SIGTERM');
    await until('let go', async () => {
      const left = await holder();
      return left === null || !isAlive(left);
    });
  };

  beforeAll(async () => {
    root = await tempDir('evalflow-linger-');
    home = join(root, '.evalflow');
    dataDir = join(home, 'pglite');
    logFile = join(home, 'store-service.log');
  });
  afterEach(async () => {
    for (const child of started.splice(0)) if (child.child.exitCode === null && child.child.signalCode === null) child.kill('SIGKILL');
    await stopHolder();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a look-up on a free store starts the service and answers; the next is served by it; SIGTERM lets the store go', async () => {
    const first = await lookUp('60');
    expect(first.code, first.output).toBe(0);
    const service = await holder();
    expect(service, await readLog()).toMatchObject({ command: 'evalflow store service' });
    expect(service!.pid).not.toBe(first.pid);
    expect(isAlive(service!)).toBe(true);

    const second = await lookUp('60', ['runs']);
    expect(second.code, second.output).toBe(0);
    // The service held the lock throughout: the look-up could not have opened PGlite itself.
    expect((await holder())?.pid).toBe(service!.pid);
    expect(await servingLines()).toBe(1);

    const socket = service!.socket!;
    expect(existsSync(socket)).toBe(true);
    process.kill(service!.pid, 'SIGTERM');
    await until('stopped', () => !isAlive(service!));
    expect(await holder()).toBeNull();
    expect(existsSync(socket)).toBe(false);
    expect(await readLog()).toMatch(/leaving \(signal\)/);
  }, 300_000);

  it('leaves after the linger time without a client, letting the lock go', async () => {
    const look = await lookUp('2');
    expect(look.code, look.output).toBe(0);
    const service = await holder();
    expect(service).toMatchObject({ command: 'evalflow store service' });
    await until('gone idle', async () => !isAlive(service!) && (await holder()) === null, 30_000);
    expect(await readLog()).toMatch(/leaving \(idle\)/);
  }, 300_000);

  it('leaves when its data dir disappears, removing its socket and letting the lock go', async () => {
    const look = await lookUp('60');
    expect(look.code, look.output).toBe(0);
    const service = (await holder())!;
    expect(service).toMatchObject({ command: 'evalflow store service' });
    expect(existsSync(service.socket!)).toBe(true);
    // The workspace's store deleted by hand (its lock file beside it stays).
    await rm(dataDir, { recursive: true, force: true });
    await until('gone with its data dir', async () => !isAlive(service) && (await holder()) === null, 30_000);
    expect(existsSync(service.socket!)).toBe(false);
    expect(await readLog()).toMatch(new RegExp(`store service ${service.pid}: leaving \\(data dir gone\\)`));
    // The next look-up starts a service on a new store.
    const next = await lookUp('60');
    expect(next.code, next.output).toBe(0);
    expect((await holder())?.pid).not.toBe(service.pid);
  }, 300_000);

  it('two look-ups at once on a free store start one service between them', async () => {
    const before = await servingLines();
    const [a, b] = await Promise.all([lookUp('60'), lookUp('60', ['history'])]);
    expect(a.code, a.output).toBe(0);
    expect(b.code, b.output).toBe(0);
    expect(await holder()).toMatchObject({ command: 'evalflow store service' });
    expect((await servingLines()) - before).toBe(1);
  }, 300_000);

  it('a service that cannot serve: the look-up fails with a line naming its log', async () => {
    // A file where the socket's folder goes: PGlite opens, then the service cannot listen.
    await rm(join(home, 'store-service'), { recursive: true, force: true });
    await writeFile(join(home, 'store-service'), 'in the way');
    try {
      const look = await lookUp('60');
      expect(look.code).toBe(1);
      expect(look.output).toContain(`the store service for ${dataDir} exited (code 1) before serving it; see its log ${logFile}`);
      expect(await holder()).toBeNull();
    } finally {
      await rm(join(home, 'store-service'), { force: true });
    }
  }, 300_000);

  it('a command that held the store (view) hands it to a service as it exits: the next look-up is served by it', async () => {
    // The store made and migrated by a look-up that starts no service.
    expect((await lookUp('0')).code).toBe(0);
    const servedBefore = await servingLines();
    const view = cli(['view', '--port', String(await freePort())], '60');
    await view.waitForLine(/^evalflow view: /, 120_000);
    expect((await holder())?.pid).toBe(view.pid);
    view.kill('SIGINT');
    expect(await view.exited).toBe(0);
    await until('handed over', async () => {
      const now = await holder();
      return now !== null && now.pid !== view.pid && isAlive(now) && now.socket !== undefined && existsSync(now.socket);
    });
    const service = (await holder())!;
    expect(service).toMatchObject({ command: 'evalflow store service' });
    const look = await lookUp('60');
    expect(look.code, look.output).toBe(0);
    expect((await holder())?.pid).toBe(service.pid);
    expect(await servingLines()).toBe(servedBefore + 1);
  }, 300_000);

  it('with EVALFLOW_STORE_LINGER=0 the look-up opens the store itself and starts nothing', async () => {
    const before = await servingLines();
    const look = await lookUp('0');
    expect(look.code, look.output).toBe(0);
    expect(await holder()).toBeNull();
    expect(await servingLines()).toBe(before);
  }, 300_000);

  it('a served long-lived process takes the store over when the service leaves idle', async () => {
    const look = await lookUp('5');
    expect(look.code, look.output).toBe(0);
    const service = (await holder())!;
    // A connection of the test's own keeps the service from leaving while the client (a tsx
    // process, slow to start on loaded cores) starts; the service's linger can then be short.
    const keeper = new pg.Client({ connectionString: `postgresql://postgres@${encodeURIComponent(dirname(service.socket!))}/postgres` });
    await keeper.connect();
    const client = startTsProcess(QUIET_CLIENT, [], { cwd: root, env: env('2') });
    started.push(client);
    try {
      expect(await client.waitForLine(/^open via /, 120_000)).toMatch(/\(evalflow store service\)/);
    } finally {
      await keeper.end();
    }
    // Its pool lets idle connections go after 10 s; then the service leaves 5 s later.
    await until('gone idle', () => !isAlive(service), 90_000);
    client.child.stdin!.write('write 1\n');
    expect(await client.waitForLine(/^(wrote|failed) 1/, 120_000)).toBe('wrote 1 via self');
    expect((await holder())?.pid).toBe(client.pid);
    client.kill('SIGTERM');
    await client.waitForLine(/^done$/);
  }, 300_000);
});
