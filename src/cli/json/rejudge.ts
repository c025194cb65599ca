import * as z from 'zod';
import { RunJson } from './runs.js';
import { jsonDocument } from './document.js';

const StabilityJson = z
  .enum(['stable_pass', 'stable_fail', 'flaky_agent', 'flaky_judge', 'flaky', 'unknown'])
  .describe("stable_pass or stable_fail: every run and every judging of it agree; flaky_agent: the runs differ while each run's judgings agree; flaky_judge: some run's judgings disagree; flaky: the runs differ and none was judged twice; unknown: a single verdict or none");

export const RejudgeJson = jsonDocument(1, 'The runs judged again, as the store has them afterwards (`evalflow rejudge`); with --repeat, each case\'s stability.', {
  runs: z.array(RunJson).describe("the selected runs after the judging, in the order selected (with --repeat, the completed ones, whose verdicts stay)"),
  not_rejudged: z.array(z.object({ run_id: z.string().describe('the run'), reason: z.string().describe('why its judging failed, in words') })).describe('runs whose judging failed (exit 1 when any)'),
  stability: z.record(z.string(), StabilityJson).nullable().describe('with --repeat: per case id, whether its verdicts repeat; null without --repeat'),
});
export type RejudgeJson = z.input<typeof RejudgeJson>;
