import { setTimeout as sleep } from 'node:timers/promises';
import type { ConnectionLike } from '@temporalio/client';
import { isUnreachable } from '../../temporal/unreachable.js';
import type { CommandIo } from '../io.js';

/** Client calls to Temporal that ride out an outage of the server. */
export interface ReconnectingCalls {
  /**
   * Runs `call` until it gets through. A connection failure is said once, retried with
   * backoff, and its end said once; any other failure is thrown as it is. An aborted
   * `signal` ends the wait (and a call in flight) with the signal's reason.
   */
  call<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface ReconnectingOptions {
  /** What goes on meanwhile, said with the outage: `the batch goes on in Temporal`. */
  meanwhile?: string;
  /** Waits between attempts; the last one repeats. The SDK itself retries each call for about 20 s first. */
  backoffMs?: readonly number[];
}

const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 10_000];

export function createReconnectingCalls(address: string, connection: ConnectionLike, io: CommandIo, options: ReconnectingOptions = {}): ReconnectingCalls {
  const backoff = options.backoffMs ?? BACKOFF_MS;
  const meanwhile = options.meanwhile ?? 'the batch goes on in Temporal';
  let downSince: number | null = null;
  return {
    async call<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      for (let attempt = 0; ; attempt += 1) {
        signal?.throwIfAborted();
        try {
          const value = await (signal ? abortable(connection, signal, call) : call());
          if (downSince !== null) {
            io.err(`reconnected to Temporal at ${address} (unreachable for ${Math.round((Date.now() - downSince) / 1000)} s)`);
            downSince = null;
          }
          return value;
        } catch (err) {
          signal?.throwIfAborted();
          if (!isUnreachable(err)) throw err;
          if (downSince === null) {
            downSince = Date.now();
            io.err(`Temporal at ${address} is unreachable; reconnecting (${meanwhile})…`);
          }
          await sleep(backoff[Math.min(attempt, backoff.length - 1)], undefined, signal ? { signal } : {}).catch(() => undefined);
        }
      }
    },
  };
}

/**
 * The SDK adds an abort listener to the signal for every call and never removes it: a signal
 * of its own per call keeps a follow of hours from piling them up on the caller's.
 */
async function abortable<T>(connection: ConnectionLike, signal: AbortSignal, call: () => Promise<T>): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  try {
    return await connection.withAbortSignal(own.signal, call);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}
