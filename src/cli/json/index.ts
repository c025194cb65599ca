import type * as z from 'zod';
import { BatchesJson } from './batches.js';
import { BatchResultJson } from './batchResult.js';
import { CalibrateJson } from './calibrate.js';
import { CandidatesJson } from './candidates.js';
import { CompareJson } from './compare.js';
import { HistoryJson } from './history.js';
import { PlanJson } from './plan.js';
import { RejudgeJson } from './rejudge.js';
import { ResumeJson } from './resume.js';
import { ReviewPendingJson } from './reviewPending.js';
import { RunsJson } from './runs.js';
import { ScheduleDescribeJson, ScheduleListJson } from './schedules.js';
import { ShowJson } from './show.js';
import { StatusJson } from './status.js';
import { ValidateJson } from './validate.js';

/** Every `--json` document by the command that prints it, in the order docs/json.md lists them. */
export const JSON_OUTPUTS: readonly { command: string; schema: z.ZodType }[] = [
  { command: 'evalflow run', schema: BatchResultJson },
  { command: 'evalflow attach', schema: BatchResultJson },
  { command: 'evalflow runs', schema: RunsJson },
  { command: 'evalflow batches', schema: BatchesJson },
  { command: 'evalflow status', schema: StatusJson },
  { command: 'evalflow show', schema: ShowJson },
  { command: 'evalflow rejudge', schema: RejudgeJson },
  { command: 'evalflow resume', schema: ResumeJson },
  { command: 'evalflow compare', schema: CompareJson },
  { command: 'evalflow history', schema: HistoryJson },
  { command: 'evalflow plan', schema: PlanJson },
  { command: 'evalflow calibrate', schema: CalibrateJson },
  { command: 'evalflow review', schema: ReviewPendingJson },
  { command: 'evalflow validate', schema: ValidateJson },
  { command: 'evalflow candidates', schema: CandidatesJson },
  { command: 'evalflow schedule list', schema: ScheduleListJson },
  { command: 'evalflow schedule describe', schema: ScheduleDescribeJson },
];
