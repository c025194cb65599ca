import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostStageActivities, type HostStages } from '../../src/activities/hostStages.js';
import { whyCannotRunHere, type CandidateSpec } from '../../src/candidates/index.js';
import { CannotRunHereError, NoFreeSlotError, OtherHostError } from '../../src/errors.js';
import { openStore, type Store } from '../../src/store/index.js';
import { hostTaskQueue } from '../../src/temporal/names.js';
import { RunSlots } from '../../src/temporal/runSlots.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';

describe('host stages inside a workflow task', () => {
  const ran: unknown[][] = [];
  const stages = {
    verifyRun: async (...args: unknown[]) => {
      ran.push(args);
      return [{ description: 'file', passed: true }];
    },
  } as unknown as HostStages;
  const { runHostStage, claimHostStage } = hostStageActivities('alpha', stages);

  it("runs the stage with its arguments on the run's own host", async () => {
    const spec = { runId: 'r1' };
    await expect(runHostStage({ queue: hostTaskQueue('alpha'), stage: 'verifyRun', args: [spec as never] })).resolves.toEqual([{ description: 'file', passed: true }]);
    expect(ran).toEqual([[spec]]);
  });

  it('refuses on any other host, naming the stage and both queues, without running it', async () => {
    ran.length = 0;
    const refused = runHostStage({ queue: hostTaskQueue('beta'), stage: 'verifyRun', args: [{ runId: 'r2' } as never] });
    await expect(refused).rejects.toBeInstanceOf(OtherHostError);
    await expect(refused).rejects.toThrow(`verifyRun belongs to the run's host (${hostTaskQueue('beta')}); this worker serves ${hostTaskQueue('alpha')}`);
    expect(ran).toEqual([]);
  });

  it("claims this worker's host for a run that has none, running the stage there", async () => {
    ran.length = 0;
    const spec = { runId: 'r3' };
    await expect(claimHostStage({ stage: 'verifyRun', args: [spec as never] })).resolves.toEqual({ queue: hostTaskQueue('alpha'), result: [{ description: 'file', passed: true }] });
    expect(ran).toEqual([[spec]]);
  });
});

describe('a host claims only runs whose candidate it can start', () => {
  let dir: string;
  let store: Store;
  const schema = randomSchema();
  let hostEnv: NodeJS.ProcessEnv;
  const ran: string[] = [];
  const stages = {
    prepareRun: async (spec: { runId: string }) => {
      ran.push(spec.runId);
      return { workflowRev: 'rev' };
    },
    recordRun: async (input: { spec: { runId: string } }) => {
      ran.push(input.spec.runId);
      return { status: 'completed' };
    },
  } as unknown as HostStages;
  const claude: CandidateSpec = { name: 'claude', adapter: 'claude-code', args: [], env: {} };
  const onPath: CandidateSpec = { name: 'agent', adapter: 'command', args: ['capable-agent'], env: {} };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-capabilities-'));
    // This host has `capable-agent` on PATH, and no agent CLI on PATH or in its agents cache.
    await mkdir(join(dir, 'bin'));
    await writeFile(join(dir, 'bin', 'capable-agent'), '#!/bin/sh\necho ok\n');
    await chmod(join(dir, 'bin', 'capable-agent'), 0o755);
    hostEnv = { PATH: join(dir, 'bin'), HOME: dir, EVALFLOW_CACHE_DIR: join(dir, 'cache') };
    store = await openStore({ databaseUrl: await postgresUrl(), schema });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await dropSchema(schema);
    await rm(dir, { recursive: true, force: true });
  });

  function host(slots: RunSlots) {
    return hostStageActivities('gamma', stages, { store, now: () => new Date('2026-05-01T00:00:00Z'), slots, candidates: { whyCannotRun: (spec) => whyCannotRunHere(spec, hostEnv) } });
  }

  it('refuses the first stage of a run whose agent CLI is not installed here, without running it or taking a slot', async () => {
    const slots = new RunSlots(1);
    const refused = host(slots).claimHostStage({ stage: 'prepareRun', args: [{ runId: 'r-claude', candidate: claude } as never] });
    await expect(refused).rejects.toBeInstanceOf(CannotRunHereError);
    await expect(refused).rejects.toThrow('host gamma cannot take run r-claude (claimed in its workflow task): candidate "claude" (adapter claude-code) cannot start: claude is not on PATH');
    expect(ran).toEqual([]);
    expect(slots.busy).toBe(0);
    expect(await store.getRunHosts(['r-claude'])).toEqual([]);
  });

  it('refuses it on the slots queue too, and takes a run whose command is on its PATH', async () => {
    const slots = new RunSlots(1);
    const { claimSlot } = host(slots);
    await expect(claimSlot({ runId: 'r-claude', generation: 0, candidate: claude })).rejects.toThrow(/^host gamma cannot take run r-claude \(claimed on the slots queue\): .*claude is not on PATH/);
    expect(slots.busy).toBe(0);
    await expect(claimSlot({ runId: 'r-agent', generation: 0, candidate: onPath })).resolves.toBe(hostTaskQueue('gamma'));
    expect(slots.busy).toBe(1);
    expect((await store.getRunHosts(['r-claude', 'r-agent'])).map((h) => [h.run_id, h.host_id])).toEqual([['r-agent', 'gamma']]);
  });

  it('takes the stages after the turns whatever the candidate (a run cancelled before it had a host is recorded anywhere)', async () => {
    const result = await host(new RunSlots(1)).claimHostStage({ stage: 'recordRun', args: [{ spec: { runId: 'r-late', candidate: claude } } as never] });
    expect(result.queue).toBe(hostTaskQueue('gamma'));
    expect(ran).toEqual(['r-late']);
  });

  it('claims a run that lost its host as on the slots queue: a slot here and this host recorded for the new attempt; not when this is the lost host come back', async () => {
    const slots = new RunSlots(1);
    const { claimHost } = host(slots);
    // The first claim of a run (no generation) only says which queue this worker serves.
    await expect(claimHost({ runId: 'r-first', candidate: onPath })).resolves.toBe(hostTaskQueue('gamma'));
    expect(slots.busy).toBe(0);
    await expect(claimHost({ runId: 'r-first', candidate: claude })).rejects.toBeInstanceOf(CannotRunHereError);
    // Its host was lost: the restart takes the slot here and is recorded as generation 1 on gamma.
    await expect(claimHost({ runId: 'r-moved', candidate: onPath, generation: 1, lost: hostTaskQueue('delta') })).resolves.toBe(hostTaskQueue('gamma'));
    expect(slots.busy).toBe(1);
    expect((await store.getRunHosts(['r-moved'])).map((h) => [h.generation, h.host_id])).toEqual([[1, 'gamma']]);
    // A full host refuses, so the run claims on the slots queue.
    await expect(claimHost({ runId: 'r-other', candidate: onPath, generation: 1, lost: hostTaskQueue('delta') })).rejects.toBeInstanceOf(NoFreeSlotError);
    // This host is the one the run lost, back: it holds the run already; nothing new is recorded.
    await expect(claimHost({ runId: 'r-back', candidate: onPath, generation: 1, lost: hostTaskQueue('gamma') })).resolves.toBe(hostTaskQueue('gamma'));
    expect(await store.getRunHosts(['r-other', 'r-back'])).toEqual([]);
  });
});
