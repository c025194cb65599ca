/** A pass rate with its Wilson score interval (95% by default). */
export interface RateInterval {
  rate: number;
  low: number;
  high: number;
  passes: number;
  n: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of `passes` out of `n`: unlike the normal approximation it stays
 * inside [0, 1] and is honest at 0 and at n passes. Null when nothing was measured.
 */
export function wilsonInterval(passes: number, n: number, z = Z95): RateInterval | null {
  if (n <= 0) return null;
  if (passes < 0 || passes > n) throw new RangeError(`wilsonInterval: ${passes} passes out of ${n}`);
  const p = passes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 and n passes the bound is exactly 0 or 1; the formula gets there only up to rounding.
  return { rate: p, low: passes === 0 ? 0 : Math.max(0, centre - half), high: passes === n ? 1 : Math.min(1, centre + half), passes, n };
}
