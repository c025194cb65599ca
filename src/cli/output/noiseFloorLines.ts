import { Z95 } from '../../stats/index.js';
import type { CalibrationRow } from '../../store/index.js';
import { noiseOf } from '../../summaries/calibration.js';

/** A compared case as the noise floor reads it: its id and each side's completed runs. */
export interface ComparedCase {
  caseId: string;
  a: { completed: number } | null;
  b: { completed: number } | null;
}

/**
 * `compare`'s noise floor: per compared case whose version side A ran has a calibration, its
 * flip rate and how far two identical arms with this comparison's runs would differ (95%):
 * a pass rate π gives each side's rate a variance of π(1 − π)/n, and π(1 − π) is half the flip
 * rate, so the difference of two identical sides spreads ±z·√(f/2 · (1/nA + 1/nB)).
 */
/** `hashesA`: the case version (case_hash) side A ran, by case id. */
export function noiseFloorLines(cases: readonly ComparedCase[], hashesA: ReadonlyMap<string, string>, calibrations: readonly CalibrationRow[]): string[] {
  const lines: string[] = [];
  for (const c of cases) {
    const hash = hashesA.get(c.caseId);
    const row = calibrations.find((r) => r.case_id === c.caseId && r.case_hash === hash);
    if (!row) continue;
    const noise = noiseOf(row);
    if (noise.flip.rate === null) continue;
    const [nA, nB] = [c.a?.completed ?? 0, c.b?.completed ?? 0];
    const band = nA > 0 && nB > 0 ? `two identical sides with ${nA}/${nB} runs differ by up to ±${Math.round(100 * Z95 * Math.sqrt((noise.flip.rate / 2) * (1 / nA + 1 / nB)))} points` : 'no runs on a side to compare';
    const split = noise.split.judge === null ? '' : `; judge ${percent(noise.split.judge)}, agent ${percent(noise.split.agent ?? 0)}`;
    lines.push(`  ${c.caseId}  flips ${percent(noise.flip.rate)} of pairs (${percent(noise.flip.low!)}…${percent(noise.flip.high!)})${split}: ${band} (calibrated by ${row.batch_id})`);
  }
  return lines.length === 0 ? [] : ['', 'noise floor (evalflow calibrate, of the case versions A ran):', ...lines];
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}
