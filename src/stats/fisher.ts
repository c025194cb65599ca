/**
 * Fisher's exact test on a 2×2 table of pass counts, two-sided: side A passed `a` of `nA`
 * runs, side B `b` of `nB`. The p-value is the total probability, with the margins fixed, of
 * every table at most as likely as the one observed. Exact for any counts (log factorials).
 */
export function fisherExact(a: number, nA: number, b: number, nB: number): number {
  const passes = a + b;
  const n = nA + nB;
  const logP = (x: number) => logChoose(nA, x) + logChoose(nB, passes - x) - logChoose(n, passes);
  const observed = logP(a);
  let p = 0;
  for (let x = Math.max(0, passes - nB); x <= Math.min(nA, passes); x++) {
    const lp = logP(x);
    // A relative tolerance, as R's fisher.test uses, so ties in probability count as "at most as likely".
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

/**
 * The smallest difference in pass rate two sides with these run counts can show at p < alpha,
 * or null when no outcome could reach it (too few runs). With 5 runs a side, 0.8: 4/5 against
 * 0/5 (p = 0.048) or 5/5 against 1/5.
 */
export function smallestDetectableDifference(nA: number, nB: number, alpha = 0.05): number | null {
  let smallest: number | null = null;
  for (let a = 0; a <= nA; a++) {
    for (let b = 0; b <= nB; b++) {
      if (fisherExact(a, nA, b, nB) >= alpha) continue;
      const difference = Math.abs(a / nA - b / nB);
      if (smallest === null || difference < smallest) smallest = difference;
    }
  }
  return smallest;
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials[i] = logFactorials[i - 1]! + Math.log(i);
  return logFactorials[n]!;
}

function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return -Infinity;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}
