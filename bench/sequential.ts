// Sequential A/B comparison (`--until-decided`): simulated comparisons of one case, each run pair
// by pair until the sequential test stops it (src/stats/sequential.ts). Against the fixed-n design
// evalflow has without it: Fisher's exact test on the fewest runs a side that reach the same power.
// Goals: over ≥ 10,000 A/A comparisons the rate of a false regression or improvement is ≤ 0.05 at
// every common pass rate; at a true difference of 40 points (0.7 → 0.3) with 80% power, the runs
// spent are ≤ 0.6× those of the fixed-n design.
//
//   npm run bench:sequential [-- --comparisons N]
import { fixedSampleSize } from '../src/stats/fixedSampleSize.js';
import { DEFAULT_SEED } from '../src/stats/random.js';
import { sequentialDesign } from '../src/stats/sequential.js';
import { sequentialOutcomes } from '../src/stats/sequentialOutcomes.js';
import { simulateSequential } from '../src/stats/simulateSequential.js';
import { row, writeResult } from './support/benchResult.js';

const flag = process.argv.indexOf('--comparisons');
const COMPARISONS = flag > 0 ? Number(process.argv[flag + 1]) : 20_000;
/** The limit of runs a side: twice the fixed design's 29, so the limit rarely binds. */
const MAX_PAIRS = 60;
const SAME_RATES = [0.1, 0.3, 0.5, 0.7, 0.9];

const started = Date.now();
const design = sequentialDesign({ maxPairs: MAX_PAIRS, alpha: 0.05, power: 0.8, detect: 0.4 });

const nulls = SAME_RATES.map((rate, i) => ({ rate, ...simulateSequential(design, rate, rate, COMPARISONS, DEFAULT_SEED + i) }));
const falseRate = (s: (typeof nulls)[number]) => (s.regressions + s.improvements) / s.comparisons;
const worst = nulls.reduce((a, b) => (falseRate(b) > falseRate(a) ? b : a));
const standardError = Math.sqrt((0.05 * 0.95) / COMPARISONS);
// The same question answered exactly, by a walk over every tally: the simulation's check, and the guarantee.
const exact = SAME_RATES.map((rate) => ({ rate, ...sequentialOutcomes(design, rate, rate) }));
const exactWorst = exact.reduce((a, b) => (b.regression + b.improvement > a.regression + a.improvement ? b : a));
const pooled = nulls.reduce((sum, s) => sum + s.regressions + s.improvements, 0) / (COMPARISONS * nulls.length);

const worse = simulateSequential(design, 0.7, 0.3, COMPARISONS, DEFAULT_SEED + 100);
const fixed = fixedSampleSize(0.7, 0.3, { alpha: 0.05, power: 0.8 })!;
const skewed = simulateSequential(design, 0.9, 0.5, COMPARISONS, DEFAULT_SEED + 101);
const fixedSkewed = fixedSampleSize(0.9, 0.5, { alpha: 0.05, power: 0.8 })!;
const half = nulls.find((s) => s.rate === 0.5)!;

writeResult(
  {
    name: 'sequential',
    title: 'Sequential A/B comparison against a fixed-n design',
    rows: [
      row('A/A false regression or improvement, simulated, all rates', 100 * pooled, '%', { goal: '<= 5', detail: `${COMPARISONS * nulls.length} comparisons, ${COMPARISONS} at each common pass rate of ${SAME_RATES.join(', ')}` }),
      row('A/A false regression or improvement, simulated, worst rate', 100 * falseRate(worst), '%', {
        detail: `at ${worst.rate}: ${worst.regressions + worst.improvements} of ${worst.comparisons} (one standard error: ${standardError.toFixed(4)}); by rate ${nulls.map((s) => `${s.rate}: ${falseRate(s).toFixed(4)}`).join(', ')}`,
      }),
      row('A/A false regression or improvement, exact, worst rate', 100 * (exactWorst.regression + exactWorst.improvement), '%', {
        goal: '<= 5',
        detail: `at ${exactWorst.rate}; by rate ${exact.map((s) => `${s.rate}: ${(s.regression + s.improvement).toFixed(4)}`).join(', ')}`,
      }),
      row('power at 0.7 → 0.3, exact from the design', design.reachedPower === null ? null : 100 * design.reachedPower, '%', { goal: '>= 80', detail: `simulated: ${(worse.regressions / worse.comparisons).toFixed(4)} of ${worse.comparisons}` }),
      row('runs spent at 0.7 → 0.3', worse.meanPairs / fixed.pairs, '×', {
        against: `the fixed-n design (Fisher, ${fixed.pairs} runs a side, power ${fixed.power.toFixed(3)})`,
        goal: '<= 0.6',
        detail: `${worse.meanPairs.toFixed(2)} runs a side on average; ${worse.undecided} of ${worse.comparisons} reached the limit of ${MAX_PAIRS}`,
      }),
      row('runs spent at 0.9 → 0.5', skewed.meanPairs / fixedSkewed.pairs, '×', {
        against: `a fixed-n design sized for these rates (Fisher, ${fixedSkewed.pairs} runs a side)`,
        detail: `${skewed.meanPairs.toFixed(2)} runs a side, power ${(skewed.regressions / skewed.comparisons).toFixed(3)}`,
      }),
      row('runs spent when nothing changed, at 0.5', half.meanPairs / fixed.pairs, '×', {
        against: `the fixed-n design (${fixed.pairs} runs a side)`,
        detail: `${half.meanPairs.toFixed(2)} runs a side; ${half.unchanged} decided unchanged, ${half.undecided} reached the limit`,
      }),
    ],
    notes: [
      `design: alpha 0.05, power 0.8 at a difference of 0.4, limit ${MAX_PAIRS} runs a side; threshold e ≥ ${Math.exp(design.logUpper).toFixed(2)}, unchanged once both ratios ≤ ${Math.exp(design.logLower).toFixed(3)}`,
      `${COMPARISONS} comparisons per scenario, seeds from ${DEFAULT_SEED}`,
    ],
  },
  started,
);
