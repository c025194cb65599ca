import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/run/batchInput.js';
import type { RunHost } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import { loggedAgentTurn, mostAtOnce, turnStarts, until } from '../support/agentLog.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { startCrashHarness, type CrashHarness } from '../support/crashHarness.js';
import { startTlsTeamServer } from '../support/tlsTeamServer.js';

const RUNS = 30;
const SLOTS = 2;
/** More runs in flight than the slots of all four hosts: runs always wait for a slot, so every host's slots stay full. */
const PARALLELISM = 10;
const HOSTS = ['host-a', 'host-b', 'host-c', 'host-d'] as const;
type HostId = (typeof HOSTS)[number];

/** When a host served: from its worker's start to its kill (or the batch's end). */
type Windows = Partial<Record<HostId, { from: number; to: number }>>;

/**
 * The runs each host could take: every claim made while it served counts for it by its share
 * of the slots serving at that moment (1/3 with three hosts of two slots, 1/4 with four).
 */
function fairShares(claims: readonly RunHost[], windows: Windows): Map<HostId, number> {
  const serving = (host: HostId, t: number) => windows[host] !== undefined && windows[host].from <= t && t <= windows[host].to;
  const shares = new Map<HostId, number>(HOSTS.map((h) => [h, 0]));
  for (const claim of claims) {
    const t = Date.parse(claim.claimed_at);
    const live = HOSTS.filter((h) => serving(h, t));
    for (const host of live) shares.set(host, shares.get(host)! + 1 / live.length);
  }
  return shares;
}

/**
 * The proof at scale: a team server on PostgreSQL over TLS (a throwaway CA), three workers as
 * three hosts (own host ids, homes and sandbox roots; one store on PostgreSQL) with two slots
 * each, and a 30-run batch of a `command` agent (uncontained: the fixture's candidate sets no
 * isolation) started by a client over TLS. The runs spread over the hosts, a fourth host joins
 * mid-batch and takes runs, a third is killed for good (SIGKILL) and its runs finish
 * elsewhere; every run completes once.
 */
describe('evalflow worker on four hosts against a TLS team server', () => {
  let harness: CrashHarness;

  beforeAll(async () => {
    harness = await startCrashHarness(
      {
        models: { examiner: 'scale-examiner', judge: 'scale-judge' },
        modelDelayMs: 0,
        agentTurn: loggedAgentTurn(1, { overlaps: true }),
        progressPostcondition: true,
      },
      startTlsTeamServer,
    );
  }, 300_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('spreads the runs, lets a joining host take some and moves a killed host\'s runs, each run completed once', async () => {
    const { fixture, store } = harness;
    const windows: Windows = {};
    const startHost = async (host: HostId): Promise<CliProcess> => {
      const worker = await harness.startWorker(host, ['--slots', String(SLOTS)]);
      windows[host] = { from: Date.now(), to: Infinity };
      return worker;
    };
    const hostC = (await Promise.all((['host-a', 'host-b', 'host-c'] as const).map(startHost)))[2]!;

    const input = fixture.batchInput({ name: 'scale', stamp: '20260601T000000', runsPerCase: RUNS, parallelism: PARALLELISM, turnTimeoutS: 60, recovery: { modelOutageS: 60, hostLostAfterS: 10 } });
    const handle = await new Client({ connection: harness.connection }).workflow.start('evalBatchWorkflow', { workflowId: input.batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    // `evalflow status` over TLS, as a user on another machine asks it, while the batch runs.
    const status = startCli(['status', input.batchId], { cwd: fixture.root, env: { ...fixture.env, ...harness.temporal.env, EVALFLOW_HOME: `${fixture.root}/.evalflow-client` } });
    const startsOn = (host: HostId) => turnStarts(fixture.agentLog(), host);
    const openOn = (host: HostId) => {
      const ended = new Set(fixture.agentLog().filter((l) => l.startsWith('end ')).map((l) => l.split(' ').slice(1, 3).join(' ')));
      return startsOn(host).filter((l) => !ended.has(l.split(' ').slice(1, 3).join(' ')));
    };
    const runsStarted = () => new Set(fixture.agentLog().filter((l) => l.startsWith('start ')).map((l) => l.split(' ')[1])).size;

    // The three hosts at work, then the fourth joins while runs wait for a slot and takes some.
    const atWork = await until(() => runsStarted() >= 8 && (['host-a', 'host-b', 'host-c'] as const).every((h) => startsOn(h).length > 0), 240_000);
    expect(atWork, `turns started per host: ${HOSTS.map((h) => `${h} ${startsOn(h).length}`).join(', ')}`).toBe(true);
    await startHost('host-d');
    expect(await until(() => startsOn('host-d').length > 0, 120_000)).toBe(true);

    // Host C dies for good while an agent of its runs is at work.
    expect(await until(() => openOn('host-c').length > 0, 60_000)).toBe(true);
    hostC.kill('SIGKILL');
    await hostC.exited;
    windows['host-c']!.to = Date.now();
    const inFlightOnC = new Set(openOn('host-c').map((l) => l.split(' ')[1]!));

    const result = (await handle.result()) as BatchResult;
    const end = Date.now();
    for (const host of HOSTS) if (windows[host]!.to === Infinity) windows[host]!.to = end;

    // Every run completed, once: one row each, no two live attempts of a turn.
    const runs = await store.listRuns({ batchId: input.batchId });
    const claims = await store.getRunHosts(runs.map((r) => r.run_id));
    // A run that did not pass is named with what the store knows of it, so a failure says why.
    const notPassed = runs.filter((r) => r.result !== 'pass').map((r) => ({ run: r.run_id, status: r.status, result: r.result, error: r.error, anomalies: r.anomalies, hosts: claims.filter((c) => c.run_id === r.run_id).map((c) => c.host_id) }));
    expect(result.counts, JSON.stringify(notPassed)).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });
    expect(runs).toHaveLength(RUNS);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const log = fixture.agentLog();
    expect(log.filter((l) => l.startsWith('overlap '))).toEqual([]);

    // Host C's runs in flight finished elsewhere, restarted from prepare and recorded as host_lost.
    const lastHost = new Map<string, RunHost>();
    for (const claim of claims) if ((lastHost.get(claim.run_id)?.generation ?? -1) < claim.generation) lastHost.set(claim.run_id, claim);
    expect(inFlightOnC.size).toBeGreaterThan(0);
    for (const runId of inFlightOnC) {
      expect(lastHost.get(runId)?.host_id, runId).not.toBe('host-c');
      expect(runs.find((r) => r.run_id === runId)?.anomalies, runId).toContainEqual(expect.objectContaining({ kind: 'host_lost', host: 'host-c' }));
    }
    // On the host where it ended, each run ran each of its two turns once.
    for (const run of runs) {
      const host = lastHost.get(run.run_id)!.host_id;
      const turns = log.filter((l) => l.startsWith(`start ${run.run_id} `) && l.includes(`sandboxes-${host}`)).map((l) => l.split(' ')[2]);
      expect(turns, run.run_id).toEqual(['1', '2']);
    }

    // Each host took at least a quarter of the runs it could take, and never held more than its slots.
    const taken = new Map(HOSTS.map((h) => [h, claims.filter((c) => c.host_id === h).length]));
    const shares = fairShares(claims, windows);
    for (const host of HOSTS) {
      expect(taken.get(host), `${host}: took ${taken.get(host)} of a fair share of ${shares.get(host)!.toFixed(1)}`).toBeGreaterThanOrEqual(shares.get(host)! / 4);
      expect(mostAtOnce(log, host), host).toBeLessThanOrEqual(SLOTS);
    }
    expect(taken.get('host-d')).toBeGreaterThan(0);

    // The status client reached the server over TLS and listed the hosts by id with their slots.
    expect(await status.exited).toBe(0);
    expect(status.stdout).toContainEqual(expect.stringMatching(/^status {4}running/));
    for (const host of ['host-a', 'host-b'] as const) expect(status.stdout).toContainEqual(expect.stringMatching(new RegExp(`^host {6}${host}: \\d/${SLOTS} slots free`)));
  }, 600_000);
});
