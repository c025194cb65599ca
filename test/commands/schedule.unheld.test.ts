import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/** `evalflow <args>` as its own process, to its end. */
async function evalflow(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string[]; all: string }> {
  const cli = startCli(args, { cwd, env });
  cli.child.stdin?.end();
  const code = await cli.exited;
  return { code, out: cli.stdout, all: `evalflow ${args.join(' ')} → ${code}\n${cli.lines.join('\n')}` };
}

/**
 * Issue: schedules fired only while a worker held the embedded store, and `schedule trigger`
 * could not run beside it. Now a trigger talks to Temporal only: with no worker and nothing
 * holding PGlite it lands, and the batch runs once a worker starts.
 */
describe('schedule trigger on the embedded store, with no worker running', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture();
    // The embedded defaults: the dev server on this machine, PGlite in EVALFLOW_HOME.
    env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
  }, 120_000);
  afterAll(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.kill('SIGKILL');
      await worker.exited;
    }
    await temporal?.stop();
    await fixture?.close();
  });

  it('lands with no worker and no store holder, and its batch runs to completion when a worker starts', { timeout: 240_000 }, async () => {
    const root = fixture.root;
    const lock = join(env.EVALFLOW_HOME!, 'pglite.lock');
    // Paused: it fires only when triggered.
    const created = await evalflow(['schedule', 'create', 'nightly', 'eval_sets', '--every', '24h', '--only', 'tiny', '--candidate', 'quick', '--runs-per-case', '1', '--paused'], root, env);
    expect(created.code, created.all).toBe(0);

    expect(existsSync(lock), 'nothing holds the embedded store').toBe(false);
    const triggered = await evalflow(['schedule', 'trigger', 'nightly'], root, env);
    expect(triggered.code, triggered.all).toBe(0);
    expect(triggered.out).toEqual(['schedule nightly triggered: `evalflow schedule describe nightly` shows the batch']);

    const startedAt = Date.now();
    worker = startCli(['worker'], { cwd: root, env });
    await worker.waitForLine(/^worker on /, 120_000);

    // Read through the worker, which holds the store now.
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      expect(store.servedBy).toBe(`process ${worker.pid} (evalflow worker) on ${hostname()}`);
      const deadline = Date.now() + 120_000;
      let concluded = await store.listScheduledBatches('nightly', 10);
      while (concluded.length === 0) {
        if (Date.now() > deadline) throw new Error(`the triggered batch did not conclude within 120 s; worker printed:\n${worker.lines.join('\n')}`);
        await new Promise((wait) => setTimeout(wait, 500));
        concluded = await store.listScheduledBatches('nightly', 10);
      }
      process.stdout.write(`triggered batch concluded ${Date.now() - startedAt} ms after the worker started\n`);
      expect(concluded).toHaveLength(1);
      const [report] = concluded;
      expect(report!.verdict).toBe('ok');
      const runs = await store.listRuns({ batchId: report!.batch_id });
      expect(runs.map((run) => [run.case_id, run.status])).toEqual([['tiny', 'completed']]);
      expect(await store.getScores(runs.map((run) => run.run_id))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
