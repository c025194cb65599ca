import { describe, expect, it } from 'vitest';
import { LlmError } from '../../src/errors.js';
import { tolerateOutages, type OutageReport } from '../../src/llm/outageTolerance.js';
import type { ChatResponse, LlmClient } from '../../src/llm/port.js';

const ok: ChatResponse = { content: 'hi', toolCalls: [], model: 'm', finishReason: 'stop' };

/** A model that fails with the given errors first, then answers; and a clock moved by the sleeps. */
function flaky(errors: Error[]) {
  let clock = 0;
  const delays: number[] = [];
  const calls = { n: 0 };
  const llm: LlmClient = {
    chat: async () => {
      calls.n += 1;
      const err = errors.shift();
      if (err) throw err;
      return ok;
    },
  };
  return { llm, calls, delays, now: () => clock, sleep: async (ms: number) => void (delays.push(ms), (clock += ms)) };
}

const report = (): OutageReport => ({ retries: 0, waitedMs: 0, lastError: null });
const http = (status: number, retryAfterMs?: number) => new LlmError(`judge model m: HTTP ${status} busy`, status, true, retryAfterMs !== undefined ? { retryAfterMs } : {});

describe('tolerateOutages', () => {
  it('retries 429/5xx with exponential backoff and reports what the wait cost', async () => {
    const f = flaky([http(503), http(503), http(429), http(502)]);
    const r = report();
    const llm = tolerateOutages(f.llm, { windowMs: 3_600_000, report: r, now: f.now, sleep: f.sleep });
    expect(await llm.chat({ role: 'judge', messages: [] })).toBe(ok);
    expect(f.delays).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(r).toEqual({ retries: 4, waitedMs: 15_000, lastError: 'judge model m: HTTP 502 busy' });
  });

  it("waits as long as the endpoint's Retry-After asks when that is longer than the backoff", async () => {
    const f = flaky([http(429, 30_000), http(429, 500)]);
    const llm = tolerateOutages(f.llm, { windowMs: 3_600_000, report: report(), now: f.now, sleep: f.sleep });
    await llm.chat({ role: 'examiner', messages: [] });
    expect(f.delays).toEqual([30_000, 2_000]);
  });

  it('caps the backoff at a minute and gives up, as a final error, once the window has passed', async () => {
    const f = flaky(Array.from({ length: 100 }, () => http(503)));
    const llm = tolerateOutages(f.llm, { windowMs: 300_000, report: report(), now: f.now, sleep: f.sleep });
    const failure = await llm.chat({ role: 'examiner', messages: [] }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(LlmError);
    expect((failure as LlmError).retryable).toBe(false);
    expect((failure as LlmError).message).toBe('judge model m: HTTP 503 busy (still failing after 5 min of retries; the outage window is 5 min)');
    expect(Math.max(...f.delays)).toBe(60_000);
    // The waits add up to the window exactly: the last one is cut to what was left.
    expect(f.delays.reduce((a, b) => a + b, 0)).toBe(300_000);
  });

  it('passes other errors and cancelled requests through at once', async () => {
    const bad = flaky([new LlmError('HTTP 400 bad request', 400, false)]);
    await expect(tolerateOutages(bad.llm, { windowMs: 60_000, report: report(), now: bad.now, sleep: bad.sleep }).chat({ role: 'judge', messages: [] })).rejects.toThrow('HTTP 400');
    expect(bad.calls.n).toBe(1);
    const controller = new AbortController();
    controller.abort();
    const cancelled = flaky([http(503)]);
    await expect(tolerateOutages(cancelled.llm, { windowMs: 60_000, report: report(), now: cancelled.now, sleep: cancelled.sleep }).chat({ role: 'judge', messages: [], signal: controller.signal })).rejects.toThrow('HTTP 503');
    expect(cancelled.delays).toEqual([]);
  });

  it('stops waiting when the request is cancelled mid-wait (real timers)', async () => {
    const controller = new AbortController();
    const f = flaky([http(503, 60_000)]);
    const llm = tolerateOutages(f.llm, { windowMs: 3_600_000, report: report() });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('cancelled by the workflow')), 100);
    await expect(llm.chat({ role: 'judge', messages: [], signal: controller.signal })).rejects.toThrow('cancelled by the workflow');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
