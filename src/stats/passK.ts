/** C(n, k) as a float: exact for the small n of eval runs, and 0 when k > n. */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - i + 1)) / i;
  return result;
}

/**
 * pass^k of one case: the chance that k runs drawn without replacement from its n runs (c
 * passing) all pass, the unbiased estimator C(c, k) / C(n, k). It measures reliability: a
 * workflow that passes 3 of 5 has pass^1 0.6 but pass^3 only 0.1.
 */
export function passHatK(n: number, c: number, k: number): number | null {
  if (k < 1 || n < k) return null;
  return binomial(c, k) / binomial(n, k);
}

/** pass@k of one case: the chance that at least one of k runs passes, 1 − C(n − c, k) / C(n, k). */
export function passAtK(n: number, c: number, k: number): number | null {
  if (k < 1 || n < k) return null;
  return 1 - binomial(n - c, k) / binomial(n, k);
}

/** The mean of a per-case estimator over the cases that have at least k runs; null when none has. */
export function meanOverCases(cases: readonly { n: number; c: number }[], k: number, estimator: (n: number, c: number, k: number) => number | null): number | null {
  const values = cases.map((x) => estimator(x.n, x.c, k)).filter((v): v is number => v !== null);
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
