import * as z from 'zod';
import type { Run, RunHost } from '../../store/index.js';
import { RunStateSchema } from '../../vocabulary/runStatus.js';
import { VerdictResultSchema } from '../../vocabulary/verdictResult.js';
import { TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** One run as listings print it: the columns of the run table and what identifies the run. */
export const RunJson = z.object({
  run_id: z.string().describe('the run id: run-<case>-<candidate>@<time>[-<attempt>]; also its workflow id'),
  batch_id: z.string().nullable().describe('null for a run outside any batch'),
  case_id: z.string().describe('the eval case it ran'),
  case_version: z.string().describe("the case's version (meta.yaml)"),
  arm: z.string().nullable().describe('the A/B arm; null outside an experiment'),
  attempt_index: z.number().int().nullable().describe('k of --runs-per-case; null with one run per case'),
  candidate: z.string().describe('the candidate it ran, by its configured name'),
  status: RunStateSchema.describe('pending, running, completed, needs_review, infra_error, judge_failed, aborted or cancelled'),
  result: VerdictResultSchema.nullable().describe('pass or fail; null until judged'),
  overall: z.number().nullable().describe("the judge's overall score; null until judged"),
  workflow_rev: z.string().nullable().describe('git commit of the workflow; null outside git or without a workflow'),
  hosts: z.array(z.string()).describe('the hosts that ran it, attempt after attempt (a lost host is followed by the one that restarted it)'),
  run_dir: z.string().describe('absolute path of the run directory'),
  error: z.string().nullable().describe('why it did not complete'),
  created_at: TimestampJson,
});

export const RunsJson = jsonDocument(1, 'The runs of `evalflow runs`, newest first, a page at a time.', {
  runs: z.array(RunJson).describe('the rows of the table, newest first'),
  next_after: z.string().nullable().describe('the run id to pass as --after for the next page; null on the last page (always null with --query)'),
  not_in_store: z
    .array(z.object({ run_id: z.string().describe('the run workflow id'), temporal_status: z.string().describe('the workflow execution status, lower case (running, completed, …)') }))
    .describe('with --query: run workflows Temporal knows that this store does not; empty otherwise'),
});
export type RunsJson = z.input<typeof RunsJson>;

/** A run row as `RunJson`, with its hosts from `getRunHosts`. */
export function runJson(run: Run, hosts: readonly RunHost[]): z.input<typeof RunJson> {
  return {
    run_id: run.run_id,
    batch_id: run.batch_id,
    case_id: run.case_id,
    case_version: run.case_version,
    arm: run.arm,
    attempt_index: run.attempt_index,
    candidate: run.candidate,
    status: run.status,
    result: run.result,
    overall: run.overall,
    workflow_rev: run.workflow_rev,
    hosts: hosts.filter((h) => h.run_id === run.run_id).sort((x, y) => x.generation - y.generation).map((h) => h.host_id),
    run_dir: run.run_dir,
    error: run.error,
    created_at: run.created_at,
  };
}
