import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunRecord } from '../../src/run/runRecord.js';
import type { RunSpec } from '../../src/run/runSpec.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';

const specIn = (runsDir: string): RunSpec => ({
  runId: 'run-record-test@20260101T000000',
  batchId: 'batch-record-test',
  evalCase: {
    id: 'record-test',
    version: 'v1',
    hash: 'h',
    dir: '/client/bank/record-test',
    maxTurns: 1,
    targetWorkflow: 't',
    category: 'c',
    task: { prompt: 'Do it.', scenario: 's', guidance: 'g' },
    rubric: { hard: ['It is done'], quality: [], commonFailures: [] },
    env: { setup_commands: [], preconditions: [], post_run_cleanup: [], postconditions: [] },
  },
  candidate: { name: 'fake', adapter: 'fake', args: [], env: {} },
  examiner: { model: 'm' },
  judge: { model: 'm' },
  project: '/client/project',
  workflowDir: '/client/workflow',
  runsDir,
  turnTimeoutS: 60,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('createRunRecord', () => {
  let store: Store;
  let root: string;
  beforeAll(async () => {
    store = await openStore({});
    root = await tempDir('evalflow-record-');
  });
  afterAll(async () => {
    await store?.close();
  });

  it("writes the run dir where the host's own runs dir says, not at the batch's path, and records that place in the store", async () => {
    const hostRuns = join(root, 'host-runs');
    const clientRuns = join(root, 'client-runs');
    const record = createRunRecord({ store, sandboxRoot: join(root, 'sandboxes'), hostId: 'host-b', runsDir: hostRuns, now: () => new Date('2026-01-01T00:00:01Z') });
    const spec = specIn(clientRuns);
    const paths = await record.open(spec, { workflowId: null, runId: null });
    expect(paths.runDir).toBe(join(hostRuns, spec.runId));
    expect(existsSync(join(paths.runDir, 'config.yaml'))).toBe(true);
    expect(existsSync(clientRuns)).toBe(false);
    expect((await store.getRun(spec.runId))?.run_dir).toBe(join(hostRuns, spec.runId));
    // Later stages on the host find the same place.
    expect(record.paths(spec).runDir).toBe(paths.runDir);
  });

  it('records a run on a host that never prepared it (its host was lost): the run dir is made there', async () => {
    const opened = createRunRecord({ store, sandboxRoot: join(root, 'sandboxes'), hostId: 'host-b', runsDir: join(root, 'runs-b'), now: () => new Date('2026-01-01T00:00:01Z') });
    const spec = specIn(join(root, 'client-runs'));
    await opened.open(spec, { workflowId: null, runId: null });
    const recorder = createRunRecord({ store, sandboxRoot: join(root, 'sandboxes'), hostId: 'host-c', runsDir: join(root, 'runs-c'), now: () => new Date('2026-01-01T00:00:02Z') });
    const facts = { turnsUsed: 0, maxTurns: 1, turnLimitHit: false, examinerEnded: false, isolation: 'none' as const };
    const outcome = await recorder.finish({ spec, status: 'infra_error', facts, postconditions: [], verdict: null, anomalies: [], error: 'host host-b was lost' });
    expect(outcome.status).toBe('infra_error');
    expect(existsSync(join(root, 'runs-c', spec.runId, 'review.md'))).toBe(true);
  });

  it("writes where the batch says when the host has no runs dir of its own", () => {
    const record = createRunRecord({ store, sandboxRoot: join(root, 'sandboxes'), hostId: 'host-a', now: () => new Date() });
    expect(record.paths(specIn('/client/runs')).runDir).toBe('/client/runs/run-record-test@20260101T000000');
  });
});
