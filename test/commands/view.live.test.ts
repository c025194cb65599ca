import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { openRuntime, type EvalRuntime } from '../../src/cli/runtime.js';
import { runTemplateOf } from '../../src/cli/batch/start.js';
import { run as view } from '../../src/commands/view.js';
import { knownAdapterNames } from '../../src/candidates/index.js';
import { loadSettings, resolveCandidate } from '../../src/config.js';
import { loadEvalBank } from '../../src/evalset/index.js';
import type { BatchInput, BatchResult } from '../../src/run/batchInput.js';
import { selectionDigest } from '../../src/run/batchPlan.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../../src/temporal/names.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/**
 * `evalflow view` end to end: a batch runs on the real dev server with a worker, and the
 * viewer, started as the command starts it, shows the batch's progress as the batch
 * workflow's own progress query answers it (not the store's counts).
 */
describe('evalflow view while a batch runs', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let runtime: EvalRuntime;
  let schema: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture({ slowSeconds: 8 });
    schema = randomSchema();
    env = { ...fixture.env, TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema };
    runtime = await openRuntime(await loadSettings(fixture.root, env), memoryIo(fixture.root, env), { worker: true, sandboxRoot: join(fixture.root, 'sandboxes') });
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await fixture?.close();
    await temporal?.stop();
    if (schema) await dropSchema(schema);
  });

  it('lists the running batch with the progress its workflow reports, then no longer once it ends', { timeout: 180_000 }, async () => {
    const settings = await loadSettings(fixture.root, env);
    const bank = await loadEvalBank([settings.evalSets], { only: ['tiny'] });
    const candidate = resolveCandidate({ ...settings, defaultCandidate: 'slow' }, 'slow', knownAdapterNames, env);
    const input: BatchInput = {
      batchId: 'batch-20261201T000000-viewlive',
      stamp: '20261201T000000',
      selection: { paths: [settings.evalSets], only: ['tiny'], runsPerCase: 2, digest: selectionDigest(bank.cases) },
      total: null,
      template: runTemplateOf(settings, candidate),
      parallelism: 2,
      offset: 0,
      counts: { finished: 0, passed: 0, failed: 0 },
      recent: [],
    };
    const handle = await runtime.temporal.client.workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input], typedSearchAttributes: [{ key: searchAttributes.batchId, value: input.batchId }] });
    await fixture.waitForTurns(2);

    const io = memoryIo(fixture.root, env);
    const stop = new AbortController();
    const serving = view({ port: 0 }, io, stop.signal);
    try {
      while (!io.stdout.some((line) => line.startsWith('evalflow view: '))) await new Promise((r) => setTimeout(r, 50));
      const url = /evalflow view: (\S+)/.exec(io.stdout.find((line) => line.startsWith('evalflow view: '))!)![1]!;
      const html = await (await fetch(url)).text();
      const item = new RegExp(`<li data-batch="${input.batchId}">.*?</li>`).exec(html)?.[0] ?? '';
      // The workflow's answer names the runs under way; the store's fallback would say "the store's count".
      expect(item).toMatch(/: <span id="running-0">0 of 2 finished, 2 running \(run-tiny-slow@20261201T000000-1, run-tiny-slow@20261201T000000-2\)<\/span><\/li>$/);
      expect(html).toContain('<script type="application/json" id="running-input">');

      const result = (await handle.result()) as BatchResult;
      expect(result.counts).toMatchObject({ finished: 2, completed: 2 });
      const after = await (await fetch(url)).text();
      expect(after).not.toContain(`<li data-batch="${input.batchId}">`);
    } finally {
      stop.abort();
      expect(await serving).toBe(0);
    }
  });
});
