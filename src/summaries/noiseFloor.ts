import { Z95 } from '../stats/index.js';
import type { CalibrationRow } from '../store/index.js';
import { noiseOf, type CaseNoise } from './calibration.js';

/** A compared case as the noise floor reads it: its id and each side's completed runs. */
export interface ComparedCase {
  caseId: string;
  a: { completed: number } | null;
  b: { completed: number } | null;
}

/** One compared case's noise floor: its calibration and what it means for this comparison's runs. */
export interface CaseNoiseFloor {
  noise: CaseNoise;
  /** The A/A batch that measured it. */
  calibratedBy: string;
  runsA: number;
  runsB: number;
  /** How far two identical sides with these runs differ (95%, a pass-rate difference); null without runs on a side. */
  spread: number | null;
}

/**
 * `compare`'s noise floor: per compared case whose version side A ran has a calibration, its
 * flip rate and how far two identical arms with this comparison's runs would differ (95%):
 * a pass rate π gives each side's rate a variance of π(1 − π)/n, and π(1 − π) is half the flip
 * rate, so the difference of two identical sides spreads ±z·√(f/2 · (1/nA + 1/nB)).
 * `hashesA`: the case version (case_hash) side A ran, by case id.
 */
export function noiseFloor(cases: readonly ComparedCase[], hashesA: ReadonlyMap<string, string>, calibrations: readonly CalibrationRow[]): CaseNoiseFloor[] {
  return cases.flatMap((c) => {
    const hash = hashesA.get(c.caseId);
    const row = calibrations.find((r) => r.case_id === c.caseId && r.case_hash === hash);
    if (!row) return [];
    const noise = noiseOf(row);
    if (noise.flip.rate === null) return [];
    const [runsA, runsB] = [c.a?.completed ?? 0, c.b?.completed ?? 0];
    const spread = runsA > 0 && runsB > 0 ? Z95 * Math.sqrt((noise.flip.rate / 2) * (1 / runsA + 1 / runsB)) : null;
    return [{ noise, calibratedBy: row.batch_id, runsA, runsB, spread }];
  });
}
