import { RunSlots } from '../../../src/temporal/runSlots.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { superviseWorkers } from '../../../src/cli/batch/superviseWorkers.js';
import { loadSettings } from '../../../src/config.js';
import { TemporalUnreachableError } from '../../../src/errors.js';
import { connectTemporal, type TemporalHandle } from '../../../src/temporal/connection.js';
import type { RunningWorkers } from '../../../src/worker.js';
import { startTestTemporal, type TestTemporal } from '../../support/temporalServer.js';

/** Stand-ins for the SDK workers (ours to fake); the server they would serve is real. */
function workersThatStop(stopped: Promise<void>): RunningWorkers & { shutdowns: number } {
  let shutdown: () => void = () => undefined;
  const done = Promise.race([stopped, new Promise<void>((resolve) => (shutdown = resolve))]);
  const workers = {
    hostId: 'h',
    hostQueue: 'evalflow@h',
    slots: new RunSlots(null),
    done,
    shutdowns: 0,
    async shutdown() {
      workers.shutdowns += 1;
      shutdown();
      await done.catch(() => undefined);
    },
    drain: () => workers.shutdown(),
  };
  return workers;
}

describe('superviseWorkers', () => {
  let server: TestTemporal;
  let temporal: TemporalHandle;

  beforeAll(async () => {
    server = await startTestTemporal();
    temporal = await connectTemporal(await loadSettings('/tmp', { TEMPORAL_ADDRESS: server.address }), () => undefined);
  });
  afterAll(async () => {
    await temporal?.close();
    await server?.stop();
  });

  it('workers that cannot start while Temporal is away start when it answers, said once each way', async () => {
    const io = memoryIo('/tmp');
    const stop = new AbortController();
    let starts = 0;
    const supervised = superviseWorkers({
      temporal,
      io,
      signal: stop.signal,
      backoffMs: [1],
      probeEveryMs: 20,
      start: async () => {
        starts += 1;
        if (starts <= 2) throw new TemporalUnreachableError('Temporal is not running', temporal.address);
        return workersThatStop(new Promise(() => undefined));
      },
    });
    await new Promise((r) => setTimeout(r, 200));
    stop.abort();
    await supervised;
    expect(starts).toBe(3);
    expect(io.stderr).toEqual([
      `Temporal at ${temporal.address} is unreachable; the worker starts when it is back…`,
      expect.stringMatching(/^reconnected to Temporal at \S+ \(unreachable for \d+ s\)$/),
      `worker started again on ${temporal.address}`,
    ]);
  });

  it('workers that stop on a lost connection are started again; Ctrl-C shuts the running ones down', async () => {
    const io = memoryIo('/tmp');
    const stop = new AbortController();
    const started: ReturnType<typeof workersThatStop>[] = [];
    const supervised = superviseWorkers({
      temporal,
      io,
      signal: stop.signal,
      backoffMs: [1],
      probeEveryMs: 20,
      start: async () => {
        const workers = workersThatStop(started.length === 0 ? Promise.reject(new Error('Channel has been shut down')) : new Promise(() => undefined));
        started.push(workers);
        return workers;
      },
    });
    await new Promise((r) => setTimeout(r, 200));
    stop.abort();
    await supervised;
    expect(started).toHaveLength(2);
    expect(started[1]!.shutdowns).toBe(1);
    expect(io.stderr[0]).toBe(`Temporal at ${temporal.address} is unreachable; the worker stopped; it starts again when Temporal is back…`);
    expect(io.stderr.at(-1)).toBe(`worker started again on ${temporal.address}`);
  });

  it('a worker that fails while Temporal answers is a bug: thrown, not restarted', async () => {
    const stop = new AbortController();
    let starts = 0;
    await expect(
      superviseWorkers({
        temporal,
        io: memoryIo('/tmp'),
        signal: stop.signal,
        backoffMs: [1],
        probeEveryMs: 20,
        start: async () => {
          starts += 1;
          return workersThatStop(Promise.reject(new Error('workflow bundle is broken')));
        },
      }),
    ).rejects.toThrow('workflow bundle is broken');
    expect(starts).toBe(1);
  });
});
