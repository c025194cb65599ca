import { decisionChances, flipRate, type SequentialDesign } from '../stats/index.js';
import type { CalibrationRow } from '../store/index.js';
import type { UntilDecided } from './untilDecided.js';

/** Beyond this many pairs a case's chances are not worked out before the batch: the limit is generous, and the walk's cost grows with its square. */
const FORECAST_LIMIT = 400;

/** A case as the batch will run it: its id and version. */
export interface ForecastCase {
  id: string;
  sha256: string;
}

/**
 * What an until-decided batch says up front about the cases its calibrations (`evalflow
 * calibrate`) measured: at each case's calibrated pass rate and within the runs a side it can
 * get (its limit, and its share of --max-runs or of --budget-usd at the calibration's cost per
 * run), a case whose chance to decide a change of the design's size is below the design's
 * power is too noisy to decide; a case that would rarely be decided unchanged when nothing
 * changed (one that never flips gives the test nothing to go on) will likely run to its limit.
 * One line per such case; none for a case without a calibration of its version.
 */
export function noiseForecast(design: SequentialDesign, limits: UntilDecided, cases: readonly ForecastCase[], calibrations: readonly CalibrationRow[]): string[] {
  const lines: string[] = [];
  for (const evalCase of cases) {
    const row = calibrations.find((c) => c.case_id === evalCase.id && c.case_hash === evalCase.sha256);
    if (!row || row.runs < 2) continue;
    const pairs = pairsWithin(limits, cases.length, row.cost_per_run);
    if (pairs > FORECAST_LIMIT) continue;
    const rate = row.passes / row.runs;
    const measured = `${evalCase.id} (calibrated by ${row.batch_id}: pass rate ${percent(rate)}, flip rate ${percent(flipRate(row.passes, row.runs).rate!)})`;
    const within = `within ${pairs} run${pairs === 1 ? '' : 's'} a side${pairs < limits.maxRunsPerCase ? ` (its share of ${limits.maxRuns !== undefined ? `--max-runs ${limits.maxRuns}` : `--budget-usd ${limits.budgetUsd}`})` : ''}`;
    const change = changeChance(design, rate, pairs);
    if (change < design.power) {
      lines.push(`too noisy: ${measured}: ${within} a ${points(design.detect)} change is decided with chance ${percent(change)}, below ${percent(design.power)}; expect insufficient_data unless it changes more`);
      continue;
    }
    const unchanged = decisionChances(design, rate, rate, pairs).unchanged;
    if (unchanged < 0.5) lines.push(`likely to run to its limit: ${measured}: ${within}, if nothing changed it is decided unchanged with chance ${percent(unchanged)} only`);
  }
  return lines;
}

/** The runs a side a case can count on: its limit, or its even share of the batch's run limit or budget when that is less. */
function pairsWithin(limits: UntilDecided, cases: number, costPerRun: number | null): number {
  let pairs = limits.maxRunsPerCase;
  if (limits.maxRuns !== undefined) pairs = Math.min(pairs, Math.floor(limits.maxRuns / (2 * cases)));
  if (limits.budgetUsd !== undefined && costPerRun !== null && costPerRun > 0) pairs = Math.min(pairs, Math.floor(limits.budgetUsd / (2 * cases * costPerRun)));
  return pairs;
}

/** The chance to decide a change of the design's size from this pass rate, in the harder of the directions it has room for. */
function changeChance(design: SequentialDesign, rate: number, pairs: number): number {
  const chances: number[] = [];
  if (rate - design.detect >= 0) chances.push(decisionChances(design, rate, rate - design.detect, pairs).regression);
  if (rate + design.detect <= 1) chances.push(decisionChances(design, rate, rate + design.detect, pairs).improvement);
  return Math.min(...chances);
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function points(x: number): string {
  return `${Math.round(x * 100)}-point`;
}
