import { binomial } from './passK.js';

/**
 * McNemar's exact test for runs that pair one to one (run i of side A with run i of side B,
 * same case): only the discordant pairs count, `onlyA` passed on A alone and `onlyB` on B
 * alone; the two-sided p-value of an exact binomial test of onlyA against onlyB at 1/2.
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += binomial(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}
