import * as z from 'zod';
import { jsonDocument } from './document.js';

const CaseNoiseJson = z.object({
  case_id: z.string().describe('the eval case'),
  case_hash: z.string().describe('the case version measured: the calibration holds for this version only'),
  runs: z.number().int().describe('judged runs of the case, both sides of the A/A batch'),
  passes: z.number().int().describe('of them, judged pass'),
  pass_rate: z.number().nullable().describe('passes / runs; null when none was judged'),
  flip_rate: z.number().nullable().describe('the share of pairs of runs whose verdicts disagree (0..0.5); null below two judged runs'),
  flip_low: z.number().nullable().describe('95% interval of the flip rate: the Wilson interval of the pass rate carried through 2p(1 − p)'),
  flip_high: z.number().nullable().describe('upper end of that interval'),
  judged_twice: z.number().int().describe('runs whose transcript was judged at least twice (rejudge --repeat)'),
  judge_flip: z.number().nullable().describe('the chance two judgings of one transcript disagree (run --judges N, rejudge --repeat); null when no run was judged twice'),
  judge_low: z.number().nullable().describe("95% interval of judge_flip: Wilson's, the mean share of disagreeing pairs taken as a proportion of judged_twice runs; null without judge_flip"),
  judge_high: z.number().nullable().describe('upper end of that interval (at most 0.5)'),
  agent_flip: z.number().nullable().describe('flip_rate − judge_flip, at least 0: what different transcripts add; null without judge_flip'),
  agent_low: z.number().nullable().describe("95% interval of agent_flip: the two intervals' half-widths squared and added (Newcombe's method 10); null without agent_flip"),
  agent_high: z.number().nullable().describe('upper end of that interval (at most 0.5)'),
  cost_per_run: z.number().nullable().describe('mean cost of a run in US dollars at the configured prices; null without prices'),
});

export const CalibrateJson = jsonDocument(1, "Each case's noise floor measured by an A/A batch (`evalflow calibrate`).", {
  batch_id: z.string().describe('the A/A batch measured'),
  cases: z.array(CaseNoiseJson).describe('one entry per case of the batch'),
});
