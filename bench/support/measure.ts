/** Helpers shared by the benchmarks: medians, and subject and baseline measured in turns. */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export async function timeMs(fn: () => unknown): Promise<number> {
  const start = nowMs();
  await fn();
  return nowMs() - start;
}

/**
 * Subject and baseline run alternately, `rounds` times each, so drift in the machine's load
 * falls on both alike; returns both medians (ms) and their ratio.
 */
export async function alternate(subject: () => unknown, baseline: () => unknown, rounds: number): Promise<{ subjectMs: number; baselineMs: number; ratio: number }> {
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await timeMs(baseline));
    s.push(await timeMs(subject));
  }
  const subjectMs = median(s);
  const baselineMs = median(b);
  return { subjectMs, baselineMs, ratio: subjectMs / baselineMs };
}

/** Peak RSS growth (MiB) while `fn` runs, sampled every 5 ms. */
export async function peakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMiB: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}
