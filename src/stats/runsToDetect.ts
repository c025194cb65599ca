import { normalQuantile } from './normalQuantile.js';

export interface DetectOptions {
  /** The difference in pass rate to detect, 0 < detect < 1 (0.3: thirty points). */
  detect: number;
  /** The chance to detect it when it is there (default 0.8). */
  power?: number;
  /** The two-sided false-alarm rate (default 0.05). */
  alpha?: number;
}

/**
 * Runs per side a case needs so that a two-sided test of two proportions at level alpha detects
 * a change of `detect` from its measured pass rate `rate` with the given power: the normal
 * approximation without continuity correction (Fleiss, Levin & Paik, Statistical Methods for
 * Rates and Proportions, 3rd ed., eq. 4.14), rounded up:
 *
 *   n = (z₁₋α/₂ √(2 p̄ q̄) + z₁₋β √(p₁q₁ + p₂q₂))² / (p₁ − p₂)²,  p̄ = (p₁ + p₂) / 2
 *
 * p₂ is the rate a regression would fall to (rate − detect), or, for a case too close to 0 to
 * fall that far, the rate an improvement would reach (rate + detect). Null when neither is a
 * rate (a change of that size cannot happen from here).
 */
export function runsToDetect(rate: number, options: DetectOptions): number | null {
  const { detect, power = 0.8, alpha = 0.05 } = options;
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`runsToDetect: expected a pass rate 0..1, found ${rate}`);
  if (!(detect > 0 && detect < 1)) throw new RangeError(`runsToDetect: expected a difference strictly between 0 and 1, found ${detect}`);
  const p1 = rate;
  const p2 = rate - detect >= 0 ? rate - detect : rate + detect;
  if (p2 > 1) return null;
  const mean = (p1 + p2) / 2;
  const zAlpha = normalQuantile(1 - alpha / 2);
  const zBeta = normalQuantile(power);
  const n = (zAlpha * Math.sqrt(2 * mean * (1 - mean)) + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p1 - p2) ** 2;
  // A float a hair above a whole number (39.0000000001) is that number.
  return Math.ceil(n - 1e-9);
}
