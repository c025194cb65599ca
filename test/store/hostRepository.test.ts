import { describe, expect, it } from 'vitest';
import { aWorkerRow, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('hosts and workers on %s', (backend) => {
  const store = useStore(backend);

  it('keeps a drain asked through the store across the worker\'s next heartbeats', async () => {
    const host = uniqueId('host');
    expect(await store().heartbeatWorker(aWorkerRow(host))).toMatchObject({ draining: false, busy: 1 });
    expect((await store().drainHost(host)).map((w) => w.worker_id)).toEqual([`${host}/42@m`]);
    // The worker's next beat says it does not drain yet: the store keeps the request and hands it back.
    expect(await store().heartbeatWorker(aWorkerRow(host, { busy: 0, seen_at: '2026-05-01T10:00:10.000Z' }))).toMatchObject({ draining: true, busy: 0, seen_at: '2026-05-01T10:00:10.000Z' });
    await store().removeWorker(`${host}/42@m`);
    expect((await store().listWorkers()).some((w) => w.host_id === host)).toBe(false);
  });

  it('records the host of each attempt once, and lists them by generation', async () => {
    const runId = uniqueId('run-hosts');
    await store().saveRunHost({ run_id: runId, generation: 1, host_id: 'b', claimed_at: '2026-05-01T10:01:00Z' });
    await store().saveRunHost({ run_id: runId, generation: 0, host_id: 'a', claimed_at: '2026-05-01T10:00:00Z' });
    // A retried claim keeps the first row.
    await store().saveRunHost({ run_id: runId, generation: 0, host_id: 'c', claimed_at: '2026-05-01T10:02:00Z' });
    expect((await store().getRunHosts([runId])).map((h) => [h.generation, h.host_id])).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
  });
});
