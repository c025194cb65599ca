import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { startTsProcess, type CliProcess } from '../support/cliProcess.js';
import { freePort, startTestTemporal } from '../support/temporalServer.js';

const HOLDER = resolve(import.meta.dirname, '../support/holdStore.ts');
const WRITER = resolve(import.meta.dirname, '../support/storeWriter.ts');

/** The count of the writer's last `wrote <n> via …` line, and who it wrote through. */
function lastWrite(writer: CliProcess): { n: number; via: string } {
  const line = [...writer.stdout].reverse().find((text) => text.startsWith('wrote '));
  const match = line ? /^wrote (\d+) via (.+)$/.exec(line) : null;
  return match ? { n: Number(match[1]), via: match[2]! } : { n: 0, via: '' };
}

/** Resolves once the writer has written `more` runs after the ones written so far. */
async function writesOn(writer: CliProcess, more: number): Promise<{ n: number; via: string }> {
  const target = lastWrite(writer).n + more;
  const line = await writer.waitForLine(new RegExp(`^(wrote ${target} via |failed )`), 120_000);
  expect(line, writer.lines.join('\n')).toMatch(/^wrote /);
  return lastWrite(writer);
}

/** Stops a writer cleanly; resolves with how many runs it wrote. */
async function stop(writer: CliProcess): Promise<number> {
  writer.kill('SIGTERM');
  expect(await writer.exited, writer.lines.join('\n')).toBe(0);
  const done = writer.stdout.find((line) => line.startsWith('done '));
  return Number(done?.slice('done '.length));
}

const via = (writer: CliProcess, name: string) => `process ${writer.pid} (storeWriter ${name}) on ${hostname()}`;

/**
 * A served process outlives its holder: when the holder is killed (or exits normally), the
 * processes it served take the embedded store over, one of them holding PGlite and serving
 * the other, and every write each of them made lands.
 */
describe('taking the embedded store over from a holder that exits', () => {
  const started: CliProcess[] = [];
  afterAll(() => {
    for (const child of started) if (child.child.exitCode === null && child.child.signalCode === null) child.kill('SIGKILL');
  });
  const start = (script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => {
    const child = startTsProcess(script, args, { cwd, env });
    started.push(child);
    return child;
  };

  it('SIGKILL of the holder: one writer takes over and serves the other; a clean exit of that one: the other takes over; no write is lost', async () => {
    const root = await tempDir('evalflow-takeover-');
    const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(root, '.evalflow') };
    delete env.DATABASE_URL;
    const holder = start(HOLDER, [], root, env);
    await holder.waitForLine(/^holding \d+$/, 240_000);
    const a = start(WRITER, ['a'], root, env);
    const b = start(WRITER, ['b'], root, env);
    const byHolder = `process ${holder.pid} (holdStore) on ${hostname()}`;
    expect((await writesOn(a, 3)).via).toBe(byHolder);
    expect((await writesOn(b, 3)).via).toBe(byHolder);

    holder.kill('SIGKILL');
    await holder.exited;
    const killedAt = Date.now();
    const [afterKillA, afterKillB] = await Promise.all([writesOn(a, 10), writesOn(b, 10)]);
    const takeoverMs = Date.now() - killedAt;
    // Exactly one holds PGlite now, and the other writes through it.
    const [taker, follower, followerName] = afterKillA.via === 'self' ? [a, b, 'b'] : [b, a, 'a'];
    const takerName = taker === a ? 'a' : 'b';
    expect([afterKillA.via, afterKillB.via].sort()).toEqual([via(taker, takerName), 'self'].sort());
    const lock = JSON.parse(await readFile(join(root, '.evalflow', 'pglite.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(taker.pid);

    // The new holder exits normally (closing its store): the follower takes over in turn.
    const takerWrote = await stop(taker);
    expect((await writesOn(follower, 10)).via).toBe('self');
    const followerWrote = await stop(follower);
    process.stdout.write(`takeover after SIGKILL: both writers on within ${takeoverMs} ms\n`);

    // Every run each writer said it wrote is there, with its score: nothing lost on the way.
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      expect(store.servedBy).toBeNull();
      for (const [name, wrote] of [
        [takerName, takerWrote],
        [followerName, followerWrote],
      ] as const) {
        expect(wrote).toBeGreaterThanOrEqual(13);
        const ids = Array.from({ length: wrote }, (_, i) => `run-${name}-${i + 1}`);
        const scores = await store.getScores(ids);
        expect(scores.map((score) => score.run_id).sort()).toEqual([...ids].sort());
      }
    } finally {
      await store.close();
    }
  }, 400_000);

  it('evalflow view, served by a holder that is killed, takes the store over and goes on serving its pages', async () => {
    const temporal = await startTestTemporal();
    try {
      const root = await tempDir('evalflow-takeover-view-');
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        EVALFLOW_HOME: join(root, '.evalflow'),
        EVALFLOW_TEMPORAL_PORT: String(temporal.port),
        EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort),
      };
      delete env.DATABASE_URL;
      delete env.TEMPORAL_ADDRESS;
      const holder = start(HOLDER, [], root, env);
      await holder.waitForLine(/^holding \d+$/, 240_000);
      const view = start(resolve(import.meta.dirname, '../../src/client.ts'), ['view', '--port', String(await freePort())], root, env);
      const url = /evalflow view: (\S+)/.exec(await view.waitForLine(/^evalflow view: /, 120_000))![1]!;
      const runPage = async () => {
        const page = await fetch(new URL('runs/run-held-2', url));
        return { status: page.status, text: await page.text() };
      };
      expect((await runPage()).text).toContain('run-held-2');

      holder.kill('SIGKILL');
      await holder.exited;
      const after = await runPage();
      expect(after.status, after.text).toBe(200);
      expect(after.text).toContain('run-held-2');
      const lock = JSON.parse(await readFile(join(root, '.evalflow', 'pglite.lock'), 'utf8')) as { pid: number };
      expect(lock.pid).toBe(view.pid);
      view.kill('SIGINT');
      await view.exited;
    } finally {
      await temporal.stop();
    }
  }, 400_000);
});
