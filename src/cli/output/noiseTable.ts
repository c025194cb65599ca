import type * as z from 'zod';
import type { CalibrateJson } from '../json/calibrate.js';
import type { CaseNoise } from '../../summaries/calibration.js';
import { formatTable } from './table.js';

/** The calibration's table: per case its runs, pass rate, flip rate with its interval, and the judge's and agent's shares. */
export function noiseTableLines(noise: readonly CaseNoise[]): string[] {
  const rows = noise.map((c) => [
    c.caseId,
    String(c.flip.runs),
    c.passRate === null ? '–' : `${percent(c.passRate)} (${c.flip.passes}/${c.flip.runs})`,
    c.flip.rate === null ? '–' : `${percent(c.flip.rate)} (${percent(c.flip.low!)}…${percent(c.flip.high!)})`,
    c.split.judge === null ? '–' : `${percent(c.split.judge)} (${percent(c.split.judgeLow!)}…${percent(c.split.judgeHigh!)}; ${c.split.judgedTwice} run${c.split.judgedTwice === 1 ? '' : 's'})`,
    c.split.agent === null ? '–' : `${percent(c.split.agent)} (${percent(c.split.agentLow!)}…${percent(c.split.agentHigh!)})`,
    note(c),
  ]);
  return formatTable(['case', 'runs', 'pass rate', 'flip rate (95%)', 'judge (95%)', 'agent (95%)', 'note'], rows);
}

/** The calibration as `--json` prints it. */
export function noiseJson(batchId: string, noise: readonly CaseNoise[]): z.input<typeof CalibrateJson> {
  return {
    schema_version: 1,
    batch_id: batchId,
    cases: noise.map((c) => ({
      case_id: c.caseId,
      case_hash: c.caseHash,
      runs: c.flip.runs,
      passes: c.flip.passes,
      pass_rate: c.passRate,
      flip_rate: c.flip.rate,
      flip_low: c.flip.low,
      flip_high: c.flip.high,
      judged_twice: c.split.judgedTwice,
      judge_flip: c.split.judge,
      judge_low: c.split.judgeLow,
      judge_high: c.split.judgeHigh,
      agent_flip: c.split.agent,
      agent_low: c.split.agentLow,
      agent_high: c.split.agentHigh,
      cost_per_run: c.costPerRun,
    })),
  };
}

function note(c: CaseNoise): string {
  if (c.flip.rate === null) return 'fewer than two judged runs: no flip rate';
  if (c.flip.rate === 0) return 'never flipped: a comparison with no change never decides it unchanged (docs/how-many-runs.md)';
  if (c.split.judge === null) return 'judge and agent not split: rejudge --repeat, then calibrate --batch';
  return '';
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}
