import type { RunHost, Store, WorkerRow } from '../../store/index.js';
import { WORKER_STALE_S } from '../../temporal/workerHeartbeat.js';

/** A running run and its own `host_lost_after_s`: the batch's client set it, not the one asking. */
export interface RunningRun {
  runId: string;
  hostLostAfterS: number;
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
  const workers = await store.listWorkers();
  const live = workers.filter((w) => isLive(w, now));
  const lines: string[] = [];
  const byHost = new Map<string, WorkerRow[]>();
  for (const worker of live) byHost.set(worker.host_id, [...(byHost.get(worker.host_id) ?? []), worker]);
  for (const [host, rows] of byHost) {
    const limited = rows.every((w) => w.slots !== null);
    const total = rows.reduce((sum, w) => sum + (w.slots ?? 0), 0);
    const busy = rows.reduce((sum, w) => sum + w.busy, 0);
    const slots = limited ? `${Math.max(0, total - busy)}/${total} slots free` : `${busy} run(s), no slot limit`;
    const draining = rows.some((w) => w.draining) ? ', draining' : '';
    lines.push(`host      ${host}: ${slots}${draining} (${rows.map((w) => `pid ${w.pid} on ${w.hostname}`).join(', ')})`);
  }
  const claims = await store.getRunHosts(running.map((r) => r.runId));
  lines.push(...lostHostLines(claims, running, workers, new Set(byHost.keys()), now));
  return lines;
}

function lostHostLines(claims: readonly RunHost[], running: readonly RunningRun[], workers: readonly WorkerRow[], liveHosts: ReadonlySet<string>, now: number): string[] {
  // A run's host is the one of its latest attempt.
  const latest = new Map<string, RunHost>();
  for (const claim of claims) if ((latest.get(claim.run_id)?.generation ?? -1) < claim.generation) latest.set(claim.run_id, claim);
  // Runs of one lost host with one limit share a line (one batch's runs share their limit), in the order given.
  const waiting = new Map<string, { host: string; hostLostAfterS: number; runs: string[] }>();
  for (const { runId, hostLostAfterS } of running) {
    const host = latest.get(runId)?.host_id;
    if (host === undefined || liveHosts.has(host)) continue;
    const key = `${host}\n${hostLostAfterS}`;
    const group = waiting.get(key) ?? { host, hostLostAfterS, runs: [] };
    group.runs.push(runId);
    waiting.set(key, group);
  }
  return [...waiting.values()].map(({ host, hostLostAfterS, runs }) => {
    const seen = workers.filter((w) => w.host_id === host).map((w) => Date.parse(w.seen_at));
    const lastSeen = seen.length > 0 ? Math.max(...seen) : null;
    // The run's next stage on that host waits host_lost_after_s from about when the host was last seen.
    const left = lastSeen === null ? null : Math.ceil(hostLostAfterS - (now - lastSeen) / 1000);
    const when = left === null ? `after host_lost_after_s (${hostLostAfterS}s) without a worker there` : left > 0 ? `in about ${left}s (host_lost_after_s ${hostLostAfterS}s)` : `now (host_lost_after_s ${hostLostAfterS}s has passed)`;
    const since = lastSeen === null ? 'no worker row' : `last seen ${Math.round((now - lastSeen) / 1000)}s ago`;
    return `waiting   ${runs.length} run(s) for lost host ${host} (${since}): ${runs.slice(0, 5).join(', ')}${runs.length > 5 ? ', …' : ''}; they move to another host ${when}`;
  });
}
