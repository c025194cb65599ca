/**
 * Fisher's exact test on a 2×2 table of pass counts, two-sided: side A passed `a` of `nA`
 * runs, side B `b` of `nB`. The p-value is the total probability, with the margins fixed, of
 * every table at most as likely as the one observed. Exact for any counts (log factorials).
 */
export function fisherExact(a: number, nA: number, b: number, nB: number): number {
  const passes = a + b;
  const n = nA + nB;
  // logChoose written out over the table (the same sums in the same order): this loop runs
  // for every outcome smallestDetectableDifference tries.
  logFactorial(n);
  const lf = logFactorials;
  const all = logChoose(n, passes);
  const logP = (x: number) => lf[nA]! - lf[x]! - lf[nA - x]! + (lf[nB]! - lf[passes - x]! - lf[nB - passes + x]!) - all;
  const observed = a < 0 || a > nA || passes - a < 0 || passes - a > nB ? -Infinity : logP(a);
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
 * 0/5 (p = 0.048) or 5/5 against 1/5. Remembered per counts: a comparison asks it per case,
 * and most cases of a batch have the same counts.
 */
export function smallestDetectableDifference(nA: number, nB: number, alpha = 0.05): number | null {
  const key = `${nA} ${nB} ${alpha}`;
  if (!detectable.has(key)) detectable.set(key, searchSmallestDifference(nA, nB, alpha));
  return detectable.get(key)!;
}

const detectable = new Map<string, number | null>();

/**
 * For each count a of side A, the outcomes b of side B nearest to a's rate that reach p < alpha:
 * walking away from a's rate in each direction, the difference only grows, so the first such b
 * each way is the only one there that can be the smallest (the test is not monotone in b, so
 * the walk does not stop at the first b that does not reach it). Hundreds of runs a side take
 * milliseconds instead of the seconds every pair took.
 */
function searchSmallestDifference(nA: number, nB: number, alpha: number): number | null {
  let smallest: number | null = null;
  const consider = (a: number, b: number): boolean => {
    if (fisherExact(a, nA, b, nB) >= alpha) return false;
    const difference = Math.abs(a / nA - b / nB);
    if (smallest === null || difference < smallest) smallest = difference;
    return true;
  };
  for (let a = 0; a <= nA; a++) {
    // Without runs on a side every rate is NaN: every pair is a candidate, as before.
    if (nA === 0 || nB === 0) {
      for (let b = 0; b <= nB; b++) consider(a, b);
      continue;
    }
    const centre = (a / nA) * nB;
    for (let b = Math.ceil(centre); b <= nB && !consider(a, b); b++);
    for (let b = Math.ceil(centre) - 1; b >= 0 && !consider(a, b); b--);
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
