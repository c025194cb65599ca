import * as z from 'zod';
import type { BatchGate } from '../../summaries/batchGate.js';
import type { BatchReport, ClosedStatus, FollowEnd } from '../batch/follow.js';
import type { RunHost } from '../../store/index.js';
import { runIsolation } from '../../summaries/index.js';
import { RunJson, runJson } from './runs.js';
import { jsonDocument } from './document.js';

const CLOSED_STATUSES = ['completed', 'failed', 'cancelled', 'terminated', 'timed_out'] as const satisfies readonly ClosedStatus[];

/** The gate of `run --gate/--baseline/--max-infra-errors`, as its `gate:` lines say it. */
const GateJson = z.object({
  outcome: z.enum(['met', 'failed', 'infrastructure']).describe('met: exit 0; failed: a check failed, exit 1; infrastructure: nothing was measured or too many runs failed on our side, exit 2'),
  checks: z
    .array(
    z.object({
      arm: z.string().nullable().describe('the arm the check is about; null for a batch without arms'),
      name: z.string().describe("what was checked: a condition (`pass_rate>=0.8`) or `no regression against …`"),
      met: z.boolean().describe('the check passed'),
      infrastructure: z.boolean().describe('a check of the infrastructure (nothing judged, too many infra_error or judge_failed runs)'),
      detail: z.string().describe('the value or the cases behind the verdict, in words'),
    }),
    )
    .describe('each check, as a `gate:` line names it'),
  notes: z.array(z.string()).describe('what the numbers leave out or stand on (runs in review, the baseline arm), in words'),
});

export const BatchResultJson = jsonDocument(
  1,
  'How the batch ended and its runs: the final table of `evalflow run` and `evalflow attach` (progress lines, the table and reports go to stderr with --json). Exit codes are those without --json; nothing is printed on stdout when the command detaches (exit 130) or refuses to start.',
  {
    batch_id: z.string().nullable().describe('null when nothing ran (`run --changed-only` found no case the changes can affect)'),
    ended: z.enum(CLOSED_STATUSES).nullable().describe("how the batch's workflow closed: completed, or failed, cancelled, terminated, timed_out (it ended early); null when nothing ran"),
    failure: z.string().nullable().describe('why the workflow failed, when it did'),
    planned: z.number().int().describe('runs the batch planned (an --until-decided batch: the runs it made)'),
    runs: z.array(RunJson).describe('every run of the batch, in run id order (the rows of the table)'),
    totals: z
      .object({
        runs: z.number().int().describe('runs recorded in the store'),
        passed: z.number().int().describe('runs judged pass'),
        judged: z.number().int().describe('runs judged pass or fail'),
        needs_review: z.number().int().describe("runs whose verdict needs a person's review (`evalflow review --pending`)"),
        not_judged: z.number().int().describe('runs that ended without a verdict (infra_error, judge_failed, aborted, cancelled, or unfinished)'),
        uncontained: z.number().int().describe('runs whose candidate ran outside a sandbox (isolation: none)'),
      })
      .describe('the tally line under the table'),
    all_completed: z.boolean().describe('every planned run completed (pass or fail): exit 0 without a gate, else 1'),
    gate: GateJson.nullable().describe('the gate when --gate, --baseline or --max-infra-errors asked for one; null otherwise'),
    web_ui: z.string().nullable().describe("the Temporal Web UI's address (search EvalBatch=\"<batch_id>\" there); null when evalflow does not know it"),
  },
);
export type BatchResultJson = z.input<typeof BatchResultJson>;

/** The document of a batch followed to its end, from the report `printBatchReport` prints. */
export function batchResultJson(report: BatchReport, end: Extract<FollowEnd, { closed: true }>, hosts: readonly RunHost[], gate: BatchGate | null, uiUrl: string | undefined): BatchResultJson {
  const judged = report.runs.filter((r) => r.result !== null).length;
  const needsReview = report.runs.filter((r) => r.status === 'needs_review').length;
  return {
    schema_version: 1,
    batch_id: report.batchId,
    ended: end.status,
    failure: end.failure,
    planned: report.total,
    runs: report.runs.map((run) => runJson(run, hosts)),
    totals: {
      runs: report.runs.length,
      passed: report.runs.filter((r) => r.result === 'pass').length,
      judged,
      needs_review: needsReview,
      not_judged: report.runs.length - judged - needsReview,
      uncontained: report.runs.filter((r) => runIsolation(r) === 'none').length,
    },
    all_completed: report.allCompleted,
    gate: gate && { outcome: gate.outcome, checks: gate.checks.map((c) => ({ arm: c.arm, name: c.name, met: c.met, infrastructure: c.infrastructure ?? false, detail: c.detail })), notes: gate.notes },
    web_ui: uiUrl ?? null,
  };
}

/** The document of a `run` that had nothing to run. */
export function nothingRanJson(): BatchResultJson {
  return { schema_version: 1, batch_id: null, ended: null, failure: null, planned: 0, runs: [], totals: { runs: 0, passed: 0, judged: 0, needs_review: 0, not_judged: 0, uncontained: 0 }, all_completed: true, gate: null, web_ui: null };
}
