import { sequentialVerdict, type PairTally, type SequentialDesign } from './sequential.js';

/** The exact chance of each way a sequential comparison ends, and the runs a side it spends on average. */
export interface SequentialOutcomes {
  regression: number;
  improvement: number;
  unchanged: number;
  undecided: number;
  meanPairs: number;
}

/**
 * How a case whose arms pass with `passA` and `passB` ends under a design, exactly: a walk over
 * every tally (only A passed, only B passed, or alike), pair by pair, the verdict itself as the
 * stopping rule. It shares nothing with the design's calibration (a walk over the discordant pairs
 * alone), so each checks the other. Pairs alike are counted as both failed: which way they went
 * only moves the interval, never the verdict. Its cost grows with the cube of the limit.
 */
export function sequentialOutcomes(design: SequentialDesign, passA: number, passB: number): SequentialOutcomes {
  const steps = [
    [passA * (1 - passB), 'onlyA'],
    [(1 - passA) * passB, 'onlyB'],
    [passA * passB + (1 - passA) * (1 - passB), null],
  ] as const;
  const result: SequentialOutcomes = { regression: 0, improvement: 0, unchanged: 0, undecided: 0, meanPairs: 0 };
  let alive = new Map<string, { tally: PairTally; p: number }>([['0,0', { tally: { pairs: 0, bothPassed: 0, onlyA: 0, onlyB: 0 }, p: 1 }]]);
  while (alive.size > 0) {
    const next = new Map<string, { tally: PairTally; p: number }>();
    for (const { tally, p } of alive.values()) {
      for (const [share, field] of steps) {
        if (share === 0) continue;
        const t = { ...tally, pairs: tally.pairs + 1 };
        if (field) t[field]++;
        const verdict = sequentialVerdict(design, t);
        if (verdict.stoppedBy) {
          const ending = verdict.label === 'no_change' ? 'unchanged' : verdict.label === 'insufficient_data' ? 'undecided' : verdict.label;
          if (ending === 'regression' || ending === 'improvement' || ending === 'unchanged' || ending === 'undecided') result[ending] += p * share;
          result.meanPairs += p * share * t.pairs;
          continue;
        }
        // Every tally alive at one step has the same number of pairs.
        const key = `${t.onlyA},${t.onlyB}`;
        const seen = next.get(key);
        if (seen) seen.p += p * share;
        else next.set(key, { tally: t, p: p * share });
      }
    }
    alive = next;
  }
  return result;
}
