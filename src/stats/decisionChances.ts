import { sequentialVerdict, type SequentialDesign } from './sequential.js';

/** The chance of each way a sequential comparison ends within a limit of pairs. */
export interface DecisionChances {
  regression: number;
  improvement: number;
  unchanged: number;
  /** Still open at the limit: insufficient_data. */
  undecided: number;
}

/**
 * How a case whose arms pass with `passA` and `passB` ends within `pairs` pairs under a design.
 * Only discordant pairs move the test, so this walks over them alone (each is A's with
 * probability passA(1 − passB) / discordance) and weighs the walk's endings by how many
 * discordant pairs `pairs` pairs hold (binomial): the square of the limit in cost, where
 * `sequentialOutcomes` walks every tally at the cube. It tells before a batch starts whether a
 * case can be decided within its limits at the pass rate a calibration measured.
 */
export function decisionChances(design: SequentialDesign, passA: number, passB: number, pairs = design.maxPairs): DecisionChances {
  if (!(passA >= 0 && passA <= 1 && passB >= 0 && passB <= 1)) throw new RangeError(`decisionChances: pass rates ${passA} and ${passB} are not in [0, 1]`);
  const limit = Math.min(pairs, design.maxPairs);
  const discordance = passA * (1 - passB) + (1 - passA) * passB;
  const ended = { regression: 0, improvement: 0, unchanged: 0 };
  if (discordance === 0 || limit < 1) return { ...ended, undecided: 1 };
  const towardA = (passA * (1 - passB)) / discordance;
  const counts = binomialPmf(limit, discordance);
  // byStep[d]: the chance of each ending reached at or before the d-th discordant pair.
  const byStep = [{ ...ended }];
  let alive = new Map<number, number>([[0, 1]]);
  for (let d = 1; d <= limit; d++) {
    const next = new Map<number, number>();
    const now = { ...byStep[d - 1]! };
    for (const [onlyA, p] of alive) {
      for (const [a, share] of [[onlyA + 1, towardA], [onlyA, 1 - towardA]] as const) {
        if (share === 0) continue;
        const verdict = sequentialVerdict(design, { pairs: d, bothPassed: 0, onlyA: a, onlyB: d - a });
        if (verdict.stoppedBy === 'evidence' || verdict.stoppedBy === 'futility') {
          const label = verdict.label === 'no_change' ? 'unchanged' : (verdict.label as 'regression' | 'improvement');
          now[label] += p * share;
        } else next.set(a, (next.get(a) ?? 0) + p * share);
      }
    }
    byStep.push(now);
    alive = next;
  }
  const chances = { ...ended };
  for (let d = 1; d <= limit; d++) for (const key of ['regression', 'improvement', 'unchanged'] as const) chances[key] += counts[d]! * byStep[d]![key];
  return { ...chances, undecided: Math.max(0, 1 - chances.regression - chances.improvement - chances.unchanged) };
}

/** P(X = d) for X ~ Binomial(n, p), d = 0..n, in logs (p^n alone underflows for a few hundred). */
function binomialPmf(n: number, p: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  if (p >= 1) {
    pmf[n] = 1;
    return pmf;
  }
  let log = n * Math.log(1 - p);
  pmf[0] = Math.exp(log);
  for (let k = 1; k <= n; k++) {
    log += Math.log(((n - k + 1) * p) / (k * (1 - p)));
    pmf[k] = Math.exp(log);
  }
  return pmf;
}
