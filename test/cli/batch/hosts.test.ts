import { describe, expect, it } from 'vitest';
import { hostLines } from '../../../src/cli/batch/hosts.js';
import type { WorkerRow } from '../../../src/store/index.js';
import { aWorkerRow, uniqueId } from '../../store/builders.js';
import { useStore } from '../../store/testBackends.js';

const NOW = Date.parse('2026-05-01T11:00:00Z');

/** Seen two seconds before NOW: live. */
const worker = (host: string, over: Partial<WorkerRow> = {}): WorkerRow => aWorkerRow(host, { seen_at: '2026-05-01T10:59:58.000Z', ...over });

/** `evalflow status`'s lines about hosts, from the workers' heartbeat rows and the runs' host claims. */
describe('hostLines', () => {
  const store = useStore('pglite');
  const ofHost = (lines: string[], host: string) => lines.filter((l) => l.includes(host));

  it('lists each live host by its id with its free slots, summed over its workers, and whether it drains', async () => {
    const [a, b, c, gone] = ['a', 'b', 'c', 'gone'].map((h) => uniqueId(`host-${h}`)) as [string, string, string, string];
    await store().heartbeatWorker(worker(a, { worker_id: `${a}/1@m1`, pid: 1, hostname: 'm1', slots: 3, busy: 1 }));
    await store().heartbeatWorker(worker(a, { worker_id: `${a}/2@m1`, pid: 2, hostname: 'm1', slots: 1, busy: 1 }));
    await store().heartbeatWorker(worker(b, { slots: null, busy: 4 }));
    await store().heartbeatWorker(worker(c, { busy: 2, draining: true }));
    // Its row is older than WORKER_STALE_S: the worker is gone.
    await store().heartbeatWorker(worker(gone, { seen_at: '2026-05-01T10:58:00.000Z' }));
    const lines = await hostLines(store(), [], NOW);
    expect(ofHost(lines, a)).toEqual([`host      ${a}: 2/4 slots free (pid 1 on m1, pid 2 on m1)`]);
    expect(ofHost(lines, b)).toEqual([`host      ${b}: 4 run(s), no slot limit (pid 42 on m)`]);
    expect(ofHost(lines, c)).toEqual([`host      ${c}: 0/2 slots free, draining (pid 42 on m)`]);
    expect(ofHost(lines, gone)).toEqual([]);
  });

  it("says which runs wait for a lost host and when they move, by each run's own host_lost_after_s", async () => {
    const [live, lost, never] = ['live', 'lost', 'never'].map((h) => uniqueId(`host-${h}`)) as [string, string, string];
    await store().heartbeatWorker(worker(live, { slots: 3, busy: 1 }));
    await store().heartbeatWorker(worker(lost, { seen_at: '2026-05-01T10:59:20.000Z' }));
    const [waits60, waits30, moved, onLive, onNever] = ['w60', 'w30', 'moved', 'onlive', 'onnever'].map((r) => uniqueId(`run-${r}`)) as [string, string, string, string, string];
    const claim = (runId: string, host: string, generation = 0) => store().saveRunHost({ run_id: runId, generation, host_id: host, claimed_at: '2026-05-01T10:50:00Z' });
    await claim(waits60, lost);
    await claim(waits30, lost);
    // Restarted on the live host after losing its first one: it waits for nothing.
    await claim(moved, lost);
    await claim(moved, live, 1);
    await claim(onLive, live);
    await claim(onNever, never);
    const running = [
      { runId: waits60, hostLostAfterS: 60 },
      { runId: waits30, hostLostAfterS: 30 },
      { runId: moved, hostLostAfterS: 60 },
      { runId: onLive, hostLostAfterS: 60 },
      { runId: onNever, hostLostAfterS: 600 },
    ];
    const lines = (await hostLines(store(), running, NOW)).filter((l) => l.startsWith('waiting'));
    expect(lines).toEqual([
      `waiting   1 run(s) for lost host ${lost} (last seen 40s ago): ${waits60}; they move to another host in about 20s (host_lost_after_s 60s)`,
      `waiting   1 run(s) for lost host ${lost} (last seen 40s ago): ${waits30}; they move to another host now (host_lost_after_s 30s has passed)`,
      `waiting   1 run(s) for lost host ${never} (no worker row): ${onNever}; they move to another host after host_lost_after_s (600s) without a worker there`,
    ]);
  });

  it('names five runs of a lost host and counts the rest', async () => {
    const lost = uniqueId('host-lost');
    await store().heartbeatWorker(worker(lost, { seen_at: '2026-05-01T10:59:50.000Z' }));
    const runIds = Array.from({ length: 7 }, (_, i) => `${uniqueId('run')}-${i}`);
    for (const runId of runIds) await store().saveRunHost({ run_id: runId, generation: 0, host_id: lost, claimed_at: '2026-05-01T10:50:00Z' });
    const lines = await hostLines(store(), runIds.map((runId) => ({ runId, hostLostAfterS: 600 })), NOW);
    // Its row is fresh, so the host is live and nothing waits; once stale, all seven do.
    expect(lines.filter((l) => l.startsWith('waiting'))).toEqual([]);
    const later = await hostLines(store(), runIds.map((runId) => ({ runId, hostLostAfterS: 600 })), NOW + 60_000);
    expect(later.filter((l) => l.startsWith('waiting'))).toHaveLength(1);
    expect(later.find((l) => l.startsWith('waiting'))).toMatch(new RegExp(`^waiting   7 run\\(s\\) for lost host ${lost} \\(last seen 70s ago\\): ${runIds.slice(0, 5).join(', ')}, …; they move to another host in about 530s`));
  });
});
