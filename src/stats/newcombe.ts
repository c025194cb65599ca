import { wilsonInterval, Z95 } from './wilson.js';

/** A difference of two pass rates (B − A) with its interval. */
export interface DifferenceInterval {
  difference: number;
  low: number;
  high: number;
}

/**
 * Newcombe's hybrid score interval for the difference of two independent proportions, B − A
 * (Newcombe 1998, "Interval estimation for the difference between independent proportions",
 * Statistics in Medicine 17, method 10): built from each side's Wilson interval, so like them it
 * stays inside [−1, 1] and is honest at 0 and n passes, where the Wald interval collapses.
 * Null when a side has no run.
 */
export function newcombeDifference(passesA: number, nA: number, passesB: number, nB: number, z = Z95): DifferenceInterval | null {
  const a = wilsonInterval(passesA, nA, z);
  const b = wilsonInterval(passesB, nB, z);
  if (!a || !b) return null;
  const difference = b.rate - a.rate;
  const below = Math.sqrt((b.rate - b.low) ** 2 + (a.high - a.rate) ** 2);
  const above = Math.sqrt((b.high - b.rate) ** 2 + (a.rate - a.low) ** 2);
  return { difference, low: Math.max(-1, difference - below), high: Math.min(1, difference + above) };
}
