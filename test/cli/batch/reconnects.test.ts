import type { ConnectionLike } from '@temporalio/client';
import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { createReconnectingCalls } from '../../../src/cli/batch/reconnects.js';

const unavailable = () => new ServiceError('Failed to describe workflow', { cause: Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14, details: 'No connection established', metadata: {} }) });
/** Calls without a signal never touch the connection. */
const noConnection = {} as ConnectionLike;

describe('createReconnectingCalls', () => {
  it('says once that Temporal is unreachable, retries, and says once that it is back', async () => {
    const io = memoryIo('/tmp');
    const calls = createReconnectingCalls('127.0.0.1:7233', noConnection, io, { backoffMs: [1] });
    let failures = 3;
    const value = await calls.call(async () => {
      if (failures-- > 0) throw unavailable();
      return 'answer';
    });
    expect(value).toBe('answer');
    expect(io.stderr).toEqual([
      'Temporal at 127.0.0.1:7233 is unreachable; reconnecting (the batch goes on in Temporal)…',
      expect.stringMatching(/^reconnected to Temporal at 127\.0\.0\.1:7233 \(unreachable for \d+ s\)$/),
    ]);
    // Back to normal: the next outage is said again.
    failures = 1;
    await calls.call(async () => {
      if (failures-- > 0) throw unavailable();
    });
    expect(io.stderr.filter((l) => l.includes('is unreachable'))).toHaveLength(2);
  });

  it('throws other failures as they are, without a word', async () => {
    const io = memoryIo('/tmp');
    const calls = createReconnectingCalls('127.0.0.1:7233', noConnection, io, { backoffMs: [1] });
    await expect(calls.call(() => Promise.reject(new Error('workflow not found')))).rejects.toThrow('workflow not found');
    expect(io.stderr).toEqual([]);
  });

  it('an aborted signal ends the wait for the server', async () => {
    const io = memoryIo('/tmp');
    const detach = new AbortController();
    // The SDK's withAbortSignal scope, as a connection that is down would run it.
    const connection = { withAbortSignal: (_signal: AbortSignal, fn: () => Promise<unknown>) => fn() } as unknown as ConnectionLike;
    const waiting = createReconnectingCalls('127.0.0.1:7233', connection, io, { backoffMs: [60_000] }).call(() => Promise.reject(unavailable()), detach.signal);
    setTimeout(() => detach.abort(new Error('detached')), 20);
    await expect(waiting).rejects.toThrow('detached');
    expect(io.stderr).toEqual(['Temporal at 127.0.0.1:7233 is unreachable; reconnecting (the batch goes on in Temporal)…']);
  });
});
