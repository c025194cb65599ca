import * as z from 'zod';
import { jsonDocument } from './document.js';

const CasePlanJson = z.object({
  case_id: z.string().describe('the eval case'),
  judged: z.number().int().describe('runs of the case judged pass or fail'),
  passes: z.number().int().describe('of them, judged pass'),
  pass_rate: z.number().nullable().describe('passes / judged; null when none was judged'),
  runs_per_side: z.number().int().nullable().describe('runs each side (A and B) needs; null when there is no pass rate or no change of that size can happen from it'),
  cost_per_run: z.number().nullable().describe('mean recorded cost of its finished runs in US dollars; null when a price or usage is missing'),
  batch_cost: z.number().nullable().describe('cost_per_run × 2 × runs_per_side; null when either is unknown'),
  note: z.string().nullable().describe('why a number is missing'),
  source: z.enum(['batch', 'calibration']).describe("where judged, passes and pass_rate come from: the batch's runs, or the calibration of the case's version (evalflow calibrate)"),
  flip_rate: z.number().nullable().describe("the calibration's flip rate when source is calibration; else null"),
});

export const PlanJson = jsonDocument(1, 'Runs per side a comparison needs to detect a change, per case of a batch (`evalflow plan`).', {
  batch_id: z.string().describe('the batch measured'),
  arm: z.string().nullable().describe('the arm measured (the baseline arm); null for a batch without arms'),
  detect: z.number().describe('the difference in pass rate to detect (0..1)'),
  power: z.number().describe('the chance to detect the difference when it is there (0..1)'),
  alpha: z.number().describe('two-sided false-alarm rate'),
  cases: z.array(CasePlanJson).describe('the rows of the table, one per case of the batch'),
  totals: z
    .object({
    runs_per_side: z.number().int().describe('summed over the planned cases'),
    runs: z.number().int().describe('both sides: 2 × runs_per_side'),
    cost: z.number().nullable().describe('US dollars; null when any planned case has no cost'),
    unplanned: z.number().int().describe('cases left out of the sums'),
    })
    .describe('the sums under the table'),
});
