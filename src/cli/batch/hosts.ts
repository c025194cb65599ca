import type { RunHost, Store, WorkerRow } from '../../store/index.js';
import { WORKER_STALE_S } from '../../temporal/workerHeartbeat.js';

/** A host with a live worker: its workers' slots, how many runs they hold, whether it drains. */
export interface LiveHost {
  hostId: string;
  /** Slots of all its workers; null when one of them has no limit (a CLI's own worker). */
  slots: number | null;
  busy: number;
  draining: boolean;
  workers: { pid: number; hostname: string }[];
}

/** A host that holds running runs but has no live worker: when they move to another host. */
export interface LostHost {
  hostId: string;
  runIds: string[];
  /** Seconds since its last worker row was seen; null when it never had one. */
  lastSeenSAgo: number | null;
  /** Seconds until its runs move (0 or less: now); null when it was never seen. */
  movesInS: number | null;
  hostLostAfterS: number;
}

/** A running run and its own `host_lost_after_s`: the batch's client set it, not the one asking. */
export interface RunningRun {
  runId: string;
  hostLostAfterS: number;
}

export interface HostStates {
  live: LiveHost[];
  lost: LostHost[];
}

/** A worker whose row is older than this is gone (killed, or its host is down). */
function isLive(worker: WorkerRow, now: number): boolean {
  return now - Date.parse(worker.seen_at) < WORKER_STALE_S * 1000;
}

/**
 * What `evalflow status` says of the hosts: one line per live host (its workers' slots, free
 * and total, and whether it drains), and for running runs whose host has no live worker, that
 * they wait for it and about when they move to another host (after the run's `host_lost_after_s`).
 */
export async function hostLines(store: Store, running: readonly RunningRun[], now = Date.now()): Promise<string[]> {
  return formatHostLines(await hostStates(store, running, now));
}

/** The live hosts, and the lost hosts of the running runs, as `hostLines` reads them. */
export async function hostStates(store: Store, running: readonly RunningRun[], now = Date.now()): Promise<HostStates> {
  const workers = await store.listWorkers();
  const byHost = new Map<string, WorkerRow[]>();
  for (const worker of workers.filter((w) => isLive(w, now))) byHost.set(worker.host_id, [...(byHost.get(worker.host_id) ?? []), worker]);
  const live = [...byHost].map(([hostId, rows]): LiveHost => ({
    hostId,
    slots: rows.every((w) => w.slots !== null) ? rows.reduce((sum, w) => sum + (w.slots ?? 0), 0) : null,
    busy: rows.reduce((sum, w) => sum + w.busy, 0),
    draining: rows.some((w) => w.draining),
    workers: rows.map((w) => ({ pid: w.pid, hostname: w.hostname })),
  }));
  return { live, lost: lostHosts(await store.getRunHosts(running.map((r) => r.runId)), running, workers, new Set(byHost.keys()), now) };
}

/** `host      a: 2/3 slots free (pid 1 on m1)` and `waiting   1 run(s) for lost host b …` lines. */
export function formatHostLines(states: HostStates): string[] {
  const lines = states.live.map((host) => {
    const slots = host.slots !== null ? `${Math.max(0, host.slots - host.busy)}/${host.slots} slots free` : `${host.busy} run(s), no slot limit`;
    return `host      ${host.hostId}: ${slots}${host.draining ? ', draining' : ''} (${host.workers.map((w) => `pid ${w.pid} on ${w.hostname}`).join(', ')})`;
  });
  for (const host of states.lost) {
    const after = host.hostLostAfterS;
    const when = host.movesInS === null ? `after host_lost_after_s (${after}s) without a worker there` : host.movesInS > 0 ? `in about ${host.movesInS}s (host_lost_after_s ${after}s)` : `now (host_lost_after_s ${after}s has passed)`;
    const since = host.lastSeenSAgo === null ? 'no worker row' : `last seen ${host.lastSeenSAgo}s ago`;
    lines.push(`waiting   ${host.runIds.length} run(s) for lost host ${host.hostId} (${since}): ${host.runIds.slice(0, 5).join(', ')}${host.runIds.length > 5 ? ', …' : ''}; they move to another host ${when}`);
  }
  return lines;
}

/** Each run's claim of its latest attempt, by run id: a run's host is the one of that attempt. */
export function latestClaims(claims: readonly RunHost[]): Map<string, RunHost> {
  const latest = new Map<string, RunHost>();
  for (const claim of claims) if ((latest.get(claim.run_id)?.generation ?? -1) < claim.generation) latest.set(claim.run_id, claim);
  return latest;
}

function lostHosts(claims: readonly RunHost[], running: readonly RunningRun[], workers: readonly WorkerRow[], liveHosts: ReadonlySet<string>, now: number): LostHost[] {
  const latest = latestClaims(claims);
  // Runs of one lost host with one limit share an entry (one batch's runs share their limit), in the order given.
  const waiting = new Map<string, { hostId: string; hostLostAfterS: number; runIds: string[] }>();
  for (const { runId, hostLostAfterS } of running) {
    const hostId = latest.get(runId)?.host_id;
    if (hostId === undefined || liveHosts.has(hostId)) continue;
    const key = `${hostId}\n${hostLostAfterS}`;
    const group = waiting.get(key) ?? { hostId, hostLostAfterS, runIds: [] };
    group.runIds.push(runId);
    waiting.set(key, group);
  }
  return [...waiting.values()].map(({ hostId, hostLostAfterS, runIds }): LostHost => {
    const seen = workers.filter((w) => w.host_id === hostId).map((w) => Date.parse(w.seen_at));
    const lastSeen = seen.length > 0 ? Math.max(...seen) : null;
    // The run's next stage on that host waits host_lost_after_s from about when the host was last seen.
    return {
      hostId,
      runIds,
      lastSeenSAgo: lastSeen === null ? null : Math.round((now - lastSeen) / 1000),
      movesInS: lastSeen === null ? null : Math.ceil(hostLostAfterS - (now - lastSeen) / 1000),
      hostLostAfterS,
    };
  });
}
