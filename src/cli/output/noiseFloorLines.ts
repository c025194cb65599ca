import type * as z from 'zod';
import type { CompareJson } from '../json/compare.js';
import type { CaseNoiseFloor } from '../../summaries/noiseFloor.js';

/** `compare`'s noise floor as lines (docs/how-many-runs.md): nothing when no compared version was calibrated. */
export function noiseFloorLines(floor: readonly CaseNoiseFloor[]): string[] {
  const lines = floor.map(({ noise, calibratedBy, runsA, runsB, spread }) => {
    const band = spread === null ? 'no runs on a side to compare' : `two identical sides with ${runsA}/${runsB} runs differ by up to ±${Math.round(100 * spread)} points`;
    const { split } = noise;
    const shares = split.judge === null ? '' : `; judge ${percent(split.judge)} (${percent(split.judgeLow!)}…${percent(split.judgeHigh!)}), agent ${percent(split.agent ?? 0)} (${percent(split.agentLow ?? 0)}…${percent(split.agentHigh ?? 0)})`;
    return `  ${noise.caseId}  flips ${percent(noise.flip.rate!)} of pairs (${percent(noise.flip.low!)}…${percent(noise.flip.high!)})${shares}: ${band} (calibrated by ${calibratedBy})`;
  });
  return lines.length === 0 ? [] : ['', 'noise floor (evalflow calibrate, of the case versions A ran):', ...lines];
}

/** The noise floor as `compare --json` prints it. */
export function noiseFloorJson(floor: readonly CaseNoiseFloor[]): z.input<typeof CompareJson>['noise_floor'] {
  return floor.map(({ noise, calibratedBy, runsA, runsB, spread }) => ({
    case_id: noise.caseId,
    case_hash: noise.caseHash,
    calibrated_by: calibratedBy,
    flip_rate: noise.flip.rate!,
    flip_low: noise.flip.low!,
    flip_high: noise.flip.high!,
    judge_flip: noise.split.judge,
    judge_low: noise.split.judgeLow,
    judge_high: noise.split.judgeHigh,
    agent_flip: noise.split.agent,
    agent_low: noise.split.agentLow,
    agent_high: noise.split.agentHigh,
    runs_a: runsA,
    runs_b: runsB,
    spread,
  }));
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}
