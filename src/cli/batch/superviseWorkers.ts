import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningWorkers } from '../../worker.js';
import type { TemporalHandle } from '../../temporal/connection.js';
import { isUnreachable } from '../../temporal/unreachable.js';
import type { CommandIo } from '../io.js';

export interface SuperviseOptions {
  temporal: TemporalHandle;
  /** Starts the workers (again); throws when they cannot start. */
  start(): Promise<RunningWorkers>;
  io: CommandIo;
  /** Aborted to stop: the workers shut down gracefully and the promise settles. */
  signal: AbortSignal;
  /** How often the server is checked while the workers run. */
  probeEveryMs?: number;
  /** Waits between restarts that fail; the last one repeats. */
  backoffMs?: readonly number[];
}

const PROBE_EVERY_MS = 5_000;
const PROBE_DEADLINE_MS = 3_000;
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Keeps the workers of `evalflow worker` serving through Temporal outages. The SDK's pollers
 * retry by themselves while the server is away; this says so once, and once when it is back.
 * Workers that stop because the server went away (or cannot start while it is away) are
 * started again when it answers; a worker that fails while the server answers is a bug and
 * is thrown.
 */
export async function superviseWorkers(options: SuperviseOptions): Promise<void> {
  const { temporal, io, signal } = options;
  const backoff = options.backoffMs ?? BACKOFF_MS;
  const outage = outageNotice(temporal.address, io);
  for (let failures = 0; !signal.aborted; ) {
    let workers: RunningWorkers;
    try {
      workers = await options.start();
    } catch (err) {
      if (!isUnreachable(err) && (await reachable(temporal))) throw err;
      outage.down('the worker starts when it is back');
      await sleep(backoff[Math.min(failures++, backoff.length - 1)], undefined, { signal }).catch(() => undefined);
      continue;
    }
    outage.up();
    if (failures > 0) io.err(`worker started again on ${temporal.address}`);
    failures = 0;
    const stopped = await runUntilStopped(workers, options, outage);
    if (stopped.by !== 'failure') return;
    if (!stopped.error || (!isUnreachable(stopped.error) && (await reachable(temporal)))) {
      throw stopped.error ?? new Error('the workers stopped by themselves');
    }
    outage.down('the worker stopped; it starts again when Temporal is back');
    failures = 1;
  }
}

type Stopped = { by: 'signal' } | { by: 'drained' } | { by: 'failure'; error: unknown };

async function runUntilStopped(workers: RunningWorkers, options: SuperviseOptions, outage: OutageNotice): Promise<Stopped> {
  const { temporal, signal } = options;
  let ended: Stopped | undefined;
  const done = workers.done.then(
    // Workers that drained stopped on purpose, once their runs were over.
    () => (ended ??= workers.slots.isDraining ? { by: 'drained' } : { by: 'failure', error: undefined }),
    (error: unknown) => (ended ??= { by: 'failure', error }),
  );
  const onAbort = () => void workers.shutdown().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!ended && !signal.aborted) {
      await Promise.race([done, sleep(options.probeEveryMs ?? PROBE_EVERY_MS, undefined, { signal }).catch(() => undefined)]);
      if (ended || signal.aborted) break;
      if (await reachable(temporal)) outage.up();
      else outage.down('the worker keeps polling and goes on when it is back; runs in flight go on');
    }
    if (signal.aborted) {
      await done;
      return { by: 'signal' };
    }
    // One worker of the two failed: the other must not go on alone.
    await workers.shutdown().catch(() => undefined);
    return ended!;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function reachable(temporal: TemporalHandle): Promise<boolean> {
  try {
    await temporal.client.connection.withDeadline(Date.now() + PROBE_DEADLINE_MS, () => temporal.client.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}

interface OutageNotice {
  down(what: string): void;
  up(): void;
}

/** One line when the server goes away, one when it is back, however long it takes. */
function outageNotice(address: string, io: CommandIo): OutageNotice {
  let since: number | null = null;
  return {
    down(what) {
      if (since !== null) return;
      since = Date.now();
      io.err(`Temporal at ${address} is unreachable; ${what}…`);
    },
    up() {
      if (since === null) return;
      io.err(`reconnected to Temporal at ${address} (unreachable for ${Math.round((Date.now() - since) / 1000)} s)`);
      since = null;
    },
  };
}
