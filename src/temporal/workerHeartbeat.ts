import { hostname } from 'node:os';
import type { Store } from '../store/index.js';
import type { RunSlots } from './runSlots.js';

/** How often a worker writes its row; `status` counts a worker live while its row is fresher than `WORKER_STALE_S`. */
export const WORKER_HEARTBEAT_S = 5;
export const WORKER_STALE_S = 30;

export interface WorkerHeartbeat {
  workerId: string;
  /** Stops writing and removes the row (a worker that dies leaves it; it goes stale). */
  stop(): Promise<void>;
}

/**
 * A worker's row in the store, written every few seconds: its host id, slots and busy slots,
 * for `evalflow status` on any machine. The row also carries a drain asked from another
 * process (`evalflow worker --drain`), which the worker reads back here. A store that does
 * not answer is skipped until the next beat: the worker's runs do not depend on its row.
 */
export function heartbeatWorker(options: { store: Store; hostId: string; slots: RunSlots; now(): Date; onDrainAsked(): void; say(line: string): void }): WorkerHeartbeat {
  const { store, hostId, slots } = options;
  const workerId = `${hostId}/${process.pid}@${hostname()}`;
  const startedAt = options.now().toISOString();
  let warned = false;
  const beat = async () => {
    try {
      const row = await store.heartbeatWorker({
        worker_id: workerId,
        host_id: hostId,
        pid: process.pid,
        hostname: hostname(),
        slots: slots.total,
        busy: slots.busy,
        draining: slots.isDraining,
        started_at: startedAt,
        seen_at: options.now().toISOString(),
      });
      warned = false;
      if (row.draining && !slots.isDraining) options.onDrainAsked();
    } catch (err) {
      if (!warned) options.say(`warning: this worker's heartbeat row could not be written (${(err as Error).message}); \`evalflow status\` will not list it until it can`);
      warned = true;
    }
  };
  let last = beat();
  const timer = setInterval(() => {
    last = last.then(beat);
  }, WORKER_HEARTBEAT_S * 1000);
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    workerId,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(timer);
        await last;
        await store.removeWorker(workerId).catch(() => undefined);
      })()),
  };
}
