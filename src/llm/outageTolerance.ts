import { LlmError } from '../errors.js';
import type { ChatRequest, ChatResponse, LlmClient } from './port.js';

/** What waiting out outages cost one caller (an examiner turn, a judge call, a builtin turn). */
export interface OutageReport {
  /** Model calls that failed with a retryable error and were tried again. */
  retries: number;
  waitedMs: number;
  lastError: string | null;
}

export interface OutageToleranceOptions {
  /** How long one call may keep failing (429, 5xx, timeouts, refused connections) before it gives up. */
  windowMs: number;
  report: OutageReport;
  /** Told before each wait, e.g. to heartbeat the wait's reason. */
  onWait?: (wait: { retry: number; delayMs: number; error: LlmError; failingForMs: number }) => void;
  /** First backoff delay (doubled per retry up to `maxDelayMs`); an endpoint's Retry-After wins when longer. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A model client that waits out outages instead of failing: a retryable LlmError is retried
 * with exponential backoff (1 s, 2 s, … up to 60 s, or the endpoint's Retry-After when it
 * asks for longer) until the call has been failing for `windowMs`; then the last error is
 * thrown as final. Other errors, and a cancelled request, pass through at once. Waiting
 * inside the call keeps the work of a turn (a builtin agent's earlier tool calls, the
 * sandbox) instead of retrying the whole activity.
 */
export function tolerateOutages(llm: LlmClient, options: OutageToleranceOptions): LlmClient {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const initial = options.initialDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 60_000;
  return {
    async chat(request: ChatRequest): Promise<ChatResponse> {
      let failingSince: number | undefined;
      for (let retry = 1; ; retry++) {
        try {
          return await llm.chat(request);
        } catch (err) {
          if (!(err instanceof LlmError) || !err.retryable || request.signal?.aborted) throw err;
          failingSince ??= now();
          const failingFor = now() - failingSince;
          const left = options.windowMs - failingFor;
          if (left <= 0) {
            throw new LlmError(`${err.message} (still failing after ${formatDuration(failingFor)} of retries; the outage window is ${formatDuration(options.windowMs)})`, err.status, false, { cause: err });
          }
          const backoff = Math.min(max, initial * 2 ** (retry - 1));
          const delayMs = Math.min(left, Math.max(backoff, err.retryAfterMs ?? 0));
          options.report.retries += 1;
          options.report.waitedMs += delayMs;
          options.report.lastError = err.message;
          options.onWait?.({ retry, delayMs, error: err, failingForMs: failingFor });
          await sleep(delayMs, request.signal);
        }
      }
    },
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 6) / 10} h`;
}
