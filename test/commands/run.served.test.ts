// suite group: beside (most of it waits on 10 s candidate turns)
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentHolder, isAlive, type LockHolder } from '../../src/store/pgliteLock.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/**
 * A whole `evalflow run` on the embedded store while a lingering store service, started by a
 * look-up beforehand, holds it (src/store/lingeringService.ts): the batch is served by it and
 * never opens PGlite itself, and look-ups answer during and after it. Real CLI processes.
 */
describe('evalflow run served by a lingering store service', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let logFile: string;
  const started: CliProcess[] = [];

  const evalflow = async (args: string[]) => {
    const cli = startCli(args, { cwd: fixture.root, env });
    started.push(cli);
    cli.child.stdin?.end();
    const code = await cli.exited;
    return { code, out: cli.stdout, all: `evalflow ${args.join(' ')} → ${code}\n${cli.lines.join('\n')}` };
  };
  const holder = async (): Promise<LockHolder | null> => {
    const now = await currentHolder(dataDir);
    return typeof now === 'object' ? now : null;
  };
  const readLog = async (): Promise<string> => (existsSync(logFile) ? readFile(logFile, 'utf8') : '');

  beforeAll(async () => {
    [temporal, fixture] = await Promise.all([startTestTemporal(), createBatchFixture({ slowSeconds: 10 })]);
    // A service that outlives each look-up by far: the batch, not its linger time, is what the test is about.
    env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort), EVALFLOW_STORE_LINGER: '120' };
    dataDir = join(fixture.root, '.evalflow', 'pglite');
    logFile = join(fixture.root, '.evalflow', 'store-service.log');
  }, 120_000);
  afterAll(async () => {
    for (const cli of started) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.kill('SIGKILL');
    const service = await holder().catch(() => null);
    if (service && isAlive(service)) process.kill(service.pid, 'SIGTERM');
    for (const deadline = Date.now() + 30_000; service && isAlive(service) && Date.now() < deadline; ) await new Promise((wait) => setTimeout(wait, 100));
    await temporal?.stop();
    await fixture?.close();
  });

  it('a batch of three runs completes through the service, and look-ups answer during and after it', { timeout: 240_000 }, async () => {
    const first = await evalflow(['batches']);
    expect(first.code, first.all).toBe(0);
    const service = (await holder())!;
    expect(service, await readLog()).toMatchObject({ command: 'evalflow store service' });

    // Who holds the store, read throughout the batch: a process that opens PGlite holds its lock first.
    const holders = new Set<number | null>();
    let watching = true;
    const watched = (async () => {
      while (watching) {
        holders.add((await holder())?.pid ?? null);
        await new Promise((wait) => setTimeout(wait, 50));
      }
    })();

    const batch = startCli(['run', '--only', 'tiny', '--candidate', 'slow', '--runs-per-case', '3', '--parallelism', '3'], { cwd: fixture.root, env });
    started.push(batch);
    const batchId = /^batch (batch-\S+): 3 runs/.exec(await batch.waitForLine(/^batch batch-\S+: 3 runs/, 90_000))![1]!;
    // Each candidate turn takes 10 s from here: longer than a look-up takes on a loaded machine (5.5 s at load 15).
    await fixture.waitForTurns(1, 90_000);
    const during = await evalflow(['runs', '--batch', batchId]);
    expect(batch.child.exitCode, 'the batch was still running when `runs` answered').toBeNull();
    expect(during.code, during.all).toBe(0);
    expect(during.out[0]).toMatch(/^case\s+status\s+result\s+overall\s+host\s+run dir$/);
    expect(during.out.length, during.all).toBeGreaterThan(2);
    expect(during.out.slice(2).every((line) => /^tiny\s/.test(line)), during.all).toBe(true);

    expect(await batch.exited, batch.lines.join('\n')).toBe(0);
    watching = false;
    await watched;
    expect(batch.lines).toContain(`3 runs: 3/3 passed (batch ${batchId})`);
    expect([...holders]).toEqual([service.pid]);
    expect(isAlive(service)).toBe(true);
    // One service served it all: no other was started, and none left.
    expect((await readLog()).match(/: serving /g), await readLog()).toHaveLength(1);
    expect(await readLog()).not.toMatch(/leaving \(/);

    const [after, shown] = await Promise.all([evalflow(['runs', '--batch', batchId]), evalflow(['status', batchId])]);
    expect(after.code, after.all).toBe(0);
    expect(after.out.slice(2)).toEqual([1, 2, 3].map(() => expect.stringMatching(/^tiny\s+completed\s+pass\s+\S+\s+\S+\s+out\/runs\/run-tiny-slow@\d{8}T\d{6}-[123]$/)));
    expect(new Set(after.out.slice(2).map((line) => line.split(/\s+/).at(-1))).size).toBe(3);
    expect(shown.code, shown.all).toBe(0);
    expect(shown.out.join('\n')).toMatch(/^status {4}completed, 3\/3 finished: 3 pass, 0 fail$/m);
    expect((await holder())?.pid).toBe(service.pid);
  });
});
