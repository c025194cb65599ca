import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Activities } from '../../src/activities/index.js';
import { epBatchRowActivities } from '../../src/activities/epBatchRows.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { EpBatchExample, EpBatchInput, EpBatchResult } from '../../src/editprediction/index.js';
import { installQuietRuntime } from '../../src/temporal/runtime.js';
import { epBatchProgressQuery } from '../../src/workflows/definitions.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

type EpActivities = Pick<Activities, 'claimHost' | 'loadEpExample' | 'predictEpExample' | 'scoreEpExample' | 'openEpBatch' | 'closeEpBatch'>;

/** What the stub activities saw, in order: `<activity>:<example key>` and a timeline of groups at work. */
interface Trace {
  calls: string[];
  groupsAtWork: Set<number>;
  maxGroupsAtWork: number;
  attempts: Map<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Orchestration only: stub activities keyed by example (`<group>-<name>`), slow enough for
 * groups to overlap. `behaviour` changes single examples.
 */
function stubActivities(queue: string, trace: Trace, behaviour: Record<string, 'fail-load' | 'predicted' | 'rate-limited' | 'gate'> = {}, gate?: Promise<void>): Omit<EpActivities, 'openEpBatch' | 'closeEpBatch'> {
  const group = (key: string) => Number(key.split('-')[0]);
  const count = (name: string) => trace.attempts.set(name, (trace.attempts.get(name) ?? 0) + 1);
  return {
    claimHost: async () => queue,
    loadEpExample: async ({ exampleKey }) => {
      trace.calls.push(`load:${exampleKey}`);
      trace.groupsAtWork.add(group(exampleKey));
      trace.maxGroupsAtWork = Math.max(trace.maxGroupsAtWork, trace.groupsAtWork.size);
      await sleep(150);
      if (behaviour[exampleKey] === 'fail-load') {
        trace.groupsAtWork.delete(group(exampleKey));
        throw ApplicationFailure.nonRetryable(`${exampleKey}: Cursor excerpt did not exist in buffer`, 'FormatError');
      }
      return { replayed: true, predictions: behaviour[exampleKey] === 'predicted' ? 1 : 0 };
    },
    predictEpExample: async ({ exampleKey }) => {
      trace.calls.push(`predict:${exampleKey}`);
      count(`predict:${exampleKey}`);
      if (behaviour[exampleKey] === 'rate-limited' && trace.attempts.get(`predict:${exampleKey}`) === 1) {
        throw ApplicationFailure.retryable('ep-model: HTTP 429 slow down', 'LlmError');
      }
      if (behaviour[exampleKey] === 'gate') await gate;
      await sleep(100);
      return { reused: false, provider: 'stub', error: null };
    },
    scoreEpExample: async ({ exampleKey }) => {
      trace.calls.push(`score:${exampleKey}`);
      trace.groupsAtWork.delete(group(exampleKey));
      return { deltaChrF: [exampleKey.endsWith('a') ? 100 : 50] };
    },
  };
}

function batchInput(examples: EpBatchExample[], overrides: Partial<EpBatchInput> = {}): EpBatchInput {
  return {
    batchId: `ep-test-${randomBytes(4).toString('hex')}`,
    examples,
    provider: { name: 'stub' },
    stage: 'score',
    beta: 0.5,
    maxParallelism: 2,
    failfast: false,
    cwd: '/nonexistent',
    offset: 0,
    counts: { finished: 0, failed: 0, reused: 0 },
    failures: [],
    recent: [],
    ...overrides,
  };
}

/** Examples `<group>-<name>`; group g has `sizes[g]` examples named a, b, c… */
function examplesOf(sizes: number[]): EpBatchExample[] {
  return sizes.flatMap((size, group) => Array.from({ length: size }, (_, i) => {
    const key = `${group}-${'abcdefgh'[i]}`;
    return { key, name: `example ${key}`, group };
  }));
}

describe('editPredictionBatchWorkflow on the real dev server', () => {
  let temporal: TestTemporal;
  let connection: Connection;
  let native: NativeConnection;
  let client: Client;
  let bundle: WorkflowBundleWithSourceMap;
  let store: Store;

  beforeAll(async () => {
    installQuietRuntime();
    store = await openStore();
    temporal = await startTestTemporal();
    connection = await Connection.connect({ address: temporal.address });
    native = await NativeConnection.connect({ address: temporal.address });
    client = new Client({ connection, namespace: temporal.namespace });
    bundle = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('../../src/workflows/index.ts', import.meta.url)),
      logger: new DefaultLogger('WARN'),
    });
  });
  afterAll(async () => {
    await store?.close();
    await native?.close();
    await connection?.close();
    await temporal?.stop();
  });

  async function runBatch(input: EpBatchInput, stubs: (queue: string) => Omit<EpActivities, 'openEpBatch' | 'closeEpBatch'>, during?: (workflowId: string) => Promise<void>) {
    const taskQueue = `ep-${randomBytes(4).toString('hex')}`;
    // The batch row activities are the real ones, over a real store: the workflow owns the row.
    const activities: EpActivities = { ...stubs(taskQueue), ...epBatchRowActivities({ store }) };
    const worker = await Worker.create({ connection: native, namespace: temporal.namespace, taskQueue, workflowBundle: bundle, activities });
    return worker.runUntil(async () => {
      const handle = await client.workflow.start('editPredictionBatchWorkflow', { taskQueue, workflowId: input.batchId, args: [input] });
      await during?.(input.batchId);
      const result = (await handle.result()) as EpBatchResult;
      const progress = await handle.query(epBatchProgressQuery);
      return { result, progress, firstRunId: handle.firstExecutionRunId };
    });
  }

  it('runs a repository group in order, groups in parallel up to the limit, retries a rate-limited prediction', async () => {
    const trace: Trace = { calls: [], groupsAtWork: new Set(), maxGroupsAtWork: 0, attempts: new Map() };
    const input = batchInput(examplesOf([3, 1, 1, 1]));
    const { result, progress } = await runBatch(input, (queue) => stubActivities(queue, trace, { '1-a': 'rate-limited' }));

    expect(result).toEqual({ batchId: input.batchId, total: 6, counts: { finished: 6, failed: 0, reused: 0 }, failures: [], stoppedEarly: false });
    const group0 = trace.calls.filter((call) => call.endsWith(':0-a') || call.endsWith(':0-b') || call.endsWith(':0-c'));
    expect(group0).toEqual(['load:0-a', 'predict:0-a', 'score:0-a', 'load:0-b', 'predict:0-b', 'score:0-b', 'load:0-c', 'predict:0-c', 'score:0-c']);
    expect(trace.maxGroupsAtWork).toBe(2);
    expect(trace.attempts.get('predict:1-a')).toBe(2);
    expect(progress.outcomes.map((outcome) => [outcome.key, outcome.status])).toHaveLength(6);
    expect(progress.outcomes.find((outcome) => outcome.key === '1-a')?.detail).toBe('predicted by stub; delta chrF 100.00');
    expect(progress.outcomes.find((outcome) => outcome.key === '0-b')?.detail).toBe('predicted by stub; delta chrF 50.00');
    // Nobody but the workflow wrote the batch row.
    const row = await store.getBatch(input.batchId);
    expect(row?.status).toBe('completed');
    expect(row?.counts).toEqual({ examples: 6, failed: 0, not_run: 0, reused: 0 });
    expect(row?.spec).toMatchObject({ kind: 'edit_prediction', stage: 'score', provider: 'stub', example_keys: ['0-a', '0-b', '0-c', '1-a', '2-a', '3-a'] });
  });

  it('skips predict when the store has predictions, records a failed example and goes on', async () => {
    const trace: Trace = { calls: [], groupsAtWork: new Set(), maxGroupsAtWork: 0, attempts: new Map() };
    const input = batchInput(examplesOf([2, 1]));
    const { result } = await runBatch(input, (queue) => stubActivities(queue, trace, { '0-a': 'fail-load', '1-a': 'predicted' }));

    expect(result.counts).toEqual({ finished: 3, failed: 1, reused: 1 });
    expect(result.failures).toEqual([{ key: '0-a', name: 'example 0-a', stage: 'load', error: 'FormatError: 0-a: Cursor excerpt did not exist in buffer' }]);
    expect(trace.calls).not.toContain('predict:0-a');
    expect(trace.calls).not.toContain('predict:1-a');
    expect(trace.calls).toContain('score:1-a');
    expect(trace.calls).toContain('score:0-b');
    expect(await store.getBatch(input.batchId)).toMatchObject({ status: 'failed', counts: { examples: 3, failed: 1, not_run: 0, reused: 1 } });
  });

  it('with failfast, starts nothing after the first failure', async () => {
    const trace: Trace = { calls: [], groupsAtWork: new Set(), maxGroupsAtWork: 0, attempts: new Map() };
    const input = batchInput(examplesOf([3, 2]), { failfast: true, maxParallelism: 1 });
    const { result } = await runBatch(input, (queue) => stubActivities(queue, trace, { '0-b': 'fail-load' }));

    expect(result.stoppedEarly).toBe(true);
    expect(result.counts).toEqual({ finished: 2, failed: 1, reused: 0 });
    expect(trace.calls).toEqual(['load:0-a', 'predict:0-a', 'score:0-a', 'load:0-b']);
    expect(await store.getBatch(input.batchId)).toMatchObject({ status: 'failed', counts: { examples: 5, failed: 1, not_run: 3 } });
  });

  it('a cancelled batch leaves its row cancelled, not running', async () => {
    const trace: Trace = { calls: [], groupsAtWork: new Set(), maxGroupsAtWork: 0, attempts: new Map() };
    const input = batchInput(examplesOf([2]));
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const outcome = runBatch(
      input,
      (queue) => stubActivities(queue, trace, { '0-a': 'gate' }, gate),
      async (workflowId) => {
        for (let tries = 0; tries < 200 && !trace.calls.includes('predict:0-a'); tries++) await sleep(100);
        expect((await store.getBatch(workflowId))?.status).toBe('running');
        await client.workflow.getHandle(workflowId).cancel();
        // The stub does not heartbeat, so it never hears of the cancel: let it end for the worker to shut down.
        release();
      },
    );
    await expect(outcome).rejects.toThrow(WorkflowFailedError);
    expect((await store.getBatch(input.batchId))?.status).toBe('cancelled');
  });

  it('stops after predict for `ep predict`, answers the progress query mid-batch and continues as new after each page', async () => {
    const trace: Trace = { calls: [], groupsAtWork: new Set(), maxGroupsAtWork: 0, attempts: new Map() };
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const input = batchInput(examplesOf([5]), { stage: 'predict', pageSize: 2 });
    const seen: { finished: number; running: string[] }[] = [];
    const { result, progress, firstRunId } = await runBatch(
      input,
      (queue) => stubActivities(queue, trace, { '0-d': 'gate' }, gate),
      async (workflowId) => {
        const handle = client.workflow.getHandle(workflowId);
        for (let tries = 0; tries < 200; tries++) {
          const now = await handle.query(epBatchProgressQuery).catch(() => null);
          if (now?.running.includes('example 0-d')) {
            seen.push({ finished: now.finished, running: now.running });
            break;
          }
          await sleep(100);
        }
        release();
      },
    );

    expect(seen).toEqual([{ finished: 3, running: ['example 0-d'] }]);
    expect(result.counts).toEqual({ finished: 5, failed: 0, reused: 0 });
    expect(trace.calls.filter((call) => call.startsWith('score'))).toEqual([]);
    // Outcomes of earlier pages were carried across continue-as-new.
    expect(progress.outcomes.map((outcome) => outcome.key)).toEqual(['0-a', '0-b', '0-c', '0-d', '0-e']);
    const first = await client.workflow.getHandle(input.batchId, firstRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    expect(await store.getBatch(input.batchId)).toMatchObject({ status: 'completed', counts: { examples: 5, failed: 0, not_run: 0 } });
  });
});
