import { DEFAULT_SEED, seededRandom } from './random.js';

export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
  n: number;
}

export interface BootstrapOptions {
  /** Resamples (default 2000). */
  resamples?: number;
  seed?: number;
  /** Two-sided confidence (default 0.95). */
  confidence?: number;
}

/** A percentile bootstrap interval of the mean of `values`; null for no values. */
export function bootstrapMean(values: readonly number[], options: BootstrapOptions = {}): MeanInterval | null {
  if (values.length === 0) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const means = resampled(values.length, options, (pick) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[pick()]!;
    return sum / values.length;
  });
  return { mean, ...percentiles(means, options.confidence ?? 0.95), n: values.length };
}

/**
 * A paired bootstrap of the mean difference B − A over paired observations (for a bank: one
 * pair per case, each the pass rate of that case on either side), resampling the pairs.
 */
export function pairedBootstrapDifference(pairs: readonly { a: number; b: number }[], options: BootstrapOptions = {}): MeanInterval | null {
  if (pairs.length === 0) return null;
  const diffs = pairs.map((p) => p.b - p.a);
  return bootstrapMean(diffs, options);
}

function resampled(n: number, options: BootstrapOptions, statistic: (pick: () => number) => number): number[] {
  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  const pick = () => Math.floor(random() * n);
  return Array.from({ length: options.resamples ?? 2000 }, () => statistic(pick)).sort((x, y) => x - y);
}

function percentiles(sorted: readonly number[], confidence: number): { low: number; high: number } {
  const tail = (1 - confidence) / 2;
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  return { low: at(tail), high: at(1 - tail) };
}
