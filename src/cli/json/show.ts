import * as z from 'zod';
import { VerdictResultSchema } from '../../vocabulary/verdictResult.js';
import { RunJson } from './runs.js';
import { TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** The files `evalflow show` looks for in a run directory. */
export const RUN_FILES = ['config.yaml', 'env_checklist.yaml', 'transcript.jsonl', 'score.yaml', 'review.md', 'workflow'] as const;

export const ShowJson = jsonDocument(1, 'One run (`evalflow show RUN_ID`); a batch id prints the document of `evalflow status` instead.', {
  run: RunJson.describe('the run as `evalflow runs --json` lists it'),
  candidate_adapter: z.string().describe("the candidate's adapter (claude-code, codex, command, …)"),
  candidate_model: z.string().nullable().describe("the candidate's model, when the run recorded one"),
  isolation: z.enum(['sandbox', 'none']).describe('none: the candidate ran outside a sandbox (uncontained)'),
  score: z
    .object({
      result: VerdictResultSchema.nullable().describe('pass or fail; null when the judge gave no result'),
      compliance: z.number().nullable().describe("the judge's compliance score (how far the agent followed the workflow); null when it gave none"),
      execution_quality: z.number().nullable().describe("the judge's execution quality score; null when it gave none"),
      overall: z.number().nullable().describe("the judge's overall score; null when it gave none"),
      judge_model: z.string().describe('the model that judged'),
      judged_at: TimestampJson.describe('when it was judged'),
      salvaged: z.boolean().describe("the verdict was salvaged from a judge's malformed answer"),
    })
    .nullable()
    .describe('the latest verdict; null until judged'),
  host_attempts: z
    .array(z.object({ host_id: z.string().describe('the host that took the attempt'), attempt: z.number().int().describe('1 for the first'), claimed_at: TimestampJson.describe('when the host took it') }))
    .describe('the hosts that ran it, attempt after attempt (a lost host is followed by the one that started it again)'),
  anomalies: z.array(z.object({ kind: z.string().describe('host_lost, model_outage, timeout, infra_retries, repeated_spend, …: the anomaly as review.md names it'), description: z.string().describe('what happened, in words') })).describe('what went unusually in the run, in words'),
  files: z
    .array(z.object({ name: z.enum(RUN_FILES).describe('the file'), path: z.string().describe('absolute path'), exists: z.boolean().describe('whether the run directory has it') }))
    .describe('the files of the run directory `show` looks for'),
  review_md: z.string().nullable().describe("the run's review.md; null when there is none"),
});
