import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as attach } from '../../src/commands/attach.js';
import { memoryIo } from '../../src/cli/io.js';
import { run as status } from '../../src/commands/status.js';
import { BatchResultJson } from '../../src/cli/json/batchResult.js';
import { StatusJson } from '../../src/cli/json/status.js';
import { openStore } from '../../src/store/index.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli } from '../support/cliProcess.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

describe('evalflow attach', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture({ slowSeconds: 2 });
    // Local mode: no TEMPORAL_ADDRESS, a dev server on the configured port, the worker in the client's process.
    env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) };
  });
  afterAll(async () => {
    await temporal?.stop();
    await fixture?.close();
  });

  it('after kill -9 of `evalflow run`, status finds the batch waiting for a worker and attach finishes it, each run once', { timeout: 240_000 }, async () => {
    const client = startCli(['run', '--only', 'tiny', '--candidate', 'slow', '--runs-per-case', '3', '--parallelism', '1'], { cwd: fixture.root, env });
    const batchId = /^batch (batch-\S+): 3 runs/.exec(await client.waitForLine(/^batch batch-\S+: 3 runs/, 90_000))![1]!;
    await client.waitForLine(/^\[1\/3\] /, 90_000);
    await fixture.waitForTurns(2);
    client.kill('SIGKILL');
    await client.exited;

    const newest = memoryIo(fixture.root, env);
    expect(await status({}, newest)).toBe(0);
    const shown = newest.stdout.join('\n');
    expect(shown).toContain(`batch     ${batchId}`);
    expect(shown).toMatch(/^status {4}running, 1\/3 finished: 1 pass, 0 fail/m);
    expect(shown).toContain(`waiting   for a worker: the batch stopped with the process that ran it; \`evalflow attach ${batchId}\` continues it (or \`evalflow worker\`)`);
    expect(shown).toMatch(/^candidate slow \(command\), parallelism 1, 3 run\(s\) per case$/m);

    const attached = memoryIo(fixture.root, env);
    const attachedAt = Date.now();
    expect(await attach({ batchId, onInterrupt: 'detach', json: true }, attached)).toBe(0);
    // The turn the dead worker held is retried at once, not after its 60 s heartbeat timeout.
    expect(attached.stderr).toContainEqual(expect.stringMatching(new RegExp(`^released 1 attempt held by a worker that is gone: run-tiny-slow@\\S+-2: candidateTurn$`)));
    expect(Date.now() - attachedAt).toBeLessThan(45_000);
    expect(attached.stderr).toContain(`attached to batch ${batchId}: 1/3 finished: 1 pass, 0 fail; a worker runs in this process`);
    expect(attached.stderr.flatMap((l) => /^\[(\d)\/3\] run-tiny-slow@\S+-\d: pass/.exec(l)?.[1] ?? [])).toEqual(['2', '3']);
    // --json: the table stays on stderr, stdout is the one document.
    expect(attached.stderr).toContain(`3 runs: 3/3 passed (batch ${batchId})`);
    const result = BatchResultJson.parse(JSON.parse(attached.stdout.join('\n')));
    expect(result).toMatchObject({ batch_id: batchId, ended: 'completed', planned: 3, all_completed: true, totals: { runs: 3, passed: 3, judged: 3 } });

    const store = await openStore({ pgliteDir: join(fixture.root, '.evalflow', 'pglite') });
    try {
      const runs = await store.listRuns({ batchId });
      expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
      expect(new Set(runs.map((r) => r.run_id)).size).toBe(3);
      expect((await store.getBatch(batchId))?.status).toBe('completed');
    } finally {
      await store.close();
    }

    const again = memoryIo(fixture.root, env);
    expect(await status({ batchId }, again)).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/^status {4}completed, 3\/3 finished: 3 pass, 0 fail$/m);
    const asJson = memoryIo(fixture.root, env);
    expect(await status({ batchId, json: true }, asJson)).toBe(0);
    const doc = StatusJson.parse(JSON.parse(asJson.stdout.join('\n')));
    expect(doc).toMatchObject({ batch_id: batchId, status: 'completed', live: false, planned: 3, counts: { finished: 3, passed: 3, failed: 0 } });
    expect(doc.runs.map((r) => [r.status, r.result])).toEqual([
      ['completed', 'pass'],
      ['completed', 'pass'],
      ['completed', 'pass'],
    ]);
  });
});
