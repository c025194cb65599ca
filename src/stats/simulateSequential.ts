import { seededRandom } from './random.js';
import { sequentialVerdict, type PairTally, type SequentialDesign } from './sequential.js';

/** What many simulated comparisons of one case under a design came to. */
export interface SimulationSummary {
  comparisons: number;
  regressions: number;
  improvements: number;
  /** Decided unchanged (the futility bound). */
  unchanged: number;
  /** Stopped at the limit undecided. */
  undecided: number;
  /** Runs a side spent, on average. */
  meanPairs: number;
}

/**
 * Runs `comparisons` simulated A/B comparisons of one case whose arms pass with `passA` and
 * `passB`, pair by pair, each stopped where the sequential verdict stops it. Seeded: the same
 * seed gives the same summary on every machine.
 */
export function simulateSequential(design: SequentialDesign, passA: number, passB: number, comparisons: number, seed: number): SimulationSummary {
  const random = seededRandom(seed);
  const summary: SimulationSummary = { comparisons, regressions: 0, improvements: 0, unchanged: 0, undecided: 0, meanPairs: 0 };
  let pairs = 0;
  for (let i = 0; i < comparisons; i++) {
    const tally: PairTally = { pairs: 0, bothPassed: 0, onlyA: 0, onlyB: 0 };
    for (;;) {
      const a = random() < passA;
      const b = random() < passB;
      tally.pairs++;
      if (a && b) tally.bothPassed++;
      else if (a) tally.onlyA++;
      else if (b) tally.onlyB++;
      const verdict = sequentialVerdict(design, tally);
      if (!verdict.stoppedBy) continue;
      if (verdict.label === 'regression') summary.regressions++;
      else if (verdict.label === 'improvement') summary.improvements++;
      else if (verdict.label === 'no_change') summary.unchanged++;
      else summary.undecided++;
      break;
    }
    pairs += tally.pairs;
  }
  summary.meanPairs = pairs / comparisons;
  return summary;
}
