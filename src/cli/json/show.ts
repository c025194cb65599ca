import * as z from 'zod';
import { VerdictResultSchema } from '../../vocabulary/verdictResult.js';
import { RunJson } from './runs.js';
import { TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** The files `evalflow show` looks for in a run directory. */
export const RUN_FILES = ['config.yaml', 'env_checklist.yaml', 'transcript.jsonl', 'score.yaml', 'review.md', 'workflow'] as const;

export const ShowJson = jsonDocument(1, 'One run (`evalflow show RUN_ID`); a batch id prints the document of `evalflow status` instead.', {
  run: RunJson,
  candidate_adapter: z.string(),
  candidate_model: z.string().nullable().describe("the candidate's model, when the run recorded one"),
  isolation: z.enum(['sandbox', 'none']).describe('none: the candidate ran outside a sandbox (uncontained)'),
  score: z
    .object({
      result: VerdictResultSchema.nullable(),
      compliance: z.number().nullable(),
      execution_quality: z.number().nullable(),
      overall: z.number().nullable(),
      judge_model: z.string(),
      judged_at: TimestampJson,
      salvaged: z.boolean().describe("the verdict was salvaged from a judge's malformed answer"),
    })
    .nullable()
    .describe('the latest verdict; null until judged'),
  host_attempts: z.array(z.object({ host_id: z.string(), attempt: z.number().int().describe('1 for the first'), claimed_at: TimestampJson })),
  anomalies: z.array(z.object({ kind: z.string(), description: z.string() })).describe('what went unusually in the run, in words'),
  files: z.array(z.object({ name: z.enum(RUN_FILES), path: z.string().describe('absolute path'), exists: z.boolean() })),
  review_md: z.string().nullable().describe("the run's review.md; null when there is none"),
});
