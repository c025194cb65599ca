import * as z from 'zod';
import { RunStateSchema } from '../../vocabulary/runStatus.js';
import { VerdictResultSchema } from '../../vocabulary/verdictResult.js';
import { BatchCountsJson, TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** One run of the batch with where it is: its status, its stage while it runs, its host. */
const StatusRunJson = z.object({
  run_id: z.string().describe('the run id; also its workflow id'),
  case_id: z.string().nullable().describe('null for a run only the workflow knows yet (the store has no row for it, or could not be opened)'),
  arm: z.string().nullable().describe('the A/B arm; null outside an experiment'),
  attempt_index: z.number().int().nullable().describe('k of --runs-per-case; null with one run per case'),
  status: RunStateSchema.describe("the store's status; running for a run the workflow reports running"),
  result: VerdictResultSchema.nullable().describe('pass or fail; null until judged'),
  stage: z.string().nullable().describe("the running run's stage (prepare, setup, dialogue, verify, judge, review, cleanup, record; the EvalStage search attribute); null when it does not run or Temporal did not say"),
  host: z.string().nullable().describe('the host that took its latest attempt; null before one did'),
});

/** A host with a live worker, from the workers' heartbeats in the store. */
const HostJson = z.object({
  host_id: z.string().describe('the host id its workers run under (EVALFLOW_HOST_ID, else the hostname)'),
  slots: z.number().int().nullable().describe('the most runs its workers hold at once; null when one has no limit (a CLI\'s own worker)'),
  busy: z.number().int().describe('the runs its workers hold now'),
  free: z.number().int().nullable().describe('slots − busy, at least 0; null without a limit'),
  draining: z.boolean().describe('asked to finish its runs and take no new ones'),
  workers: z.array(z.object({ pid: z.number().int().describe('the worker process id'), hostname: z.string().describe('the machine it runs on') })).describe('its worker processes'),
});

/** A host that holds running runs and has no live worker: its runs wait, then move to another host. */
const LostHostJson = z.object({
  host_id: z.string().describe('the host id of the lost host'),
  run_ids: z.array(z.string()).describe('the running runs whose latest attempt it took'),
  last_seen_s_ago: z.number().int().nullable().describe('seconds since a worker of it was last seen; null when none ever was'),
  moves_in_s: z.number().int().nullable().describe('about when its runs move to another host, in seconds (0 or less: now); null when it was never seen'),
  host_lost_after_s: z.number().describe('how long a host may be silent before its runs move (config recovery.host_lost_after_s)'),
});

export const StatusJson = jsonDocument(1, 'Where a batch stands (`evalflow status [BATCH]`, and `evalflow show BATCH`): the lines of the table as fields, and every run with its stage and host.', {
  batch_id: z.string().describe('the batch shown: the one named, else the newest'),
  status: z
    .string()
    .describe("running while Temporal runs the batch; else the store's status (pending, running, completed, failed, cancelled), or Temporal's execution status in lower case when the store has no row, or unknown"),
  live: z.boolean().describe("true: Temporal runs the batch now and the fields say where it is; false: the batch closed, or Temporal cannot be asked, and the fields are the store's last word"),
  counts: BatchCountsJson.nullable().describe('runs per outcome (finished, passed, failed, needs_review, infra_error, …; a missing key is 0); null before the batch was planned'),
  planned: z.number().int().nullable().describe('runs the batch planned; null before it was planned'),
  counts_of_last: z.number().int().nullable().describe("the counts come from the workflow's last N outcomes only (its progress keeps a window): N; null when they count every finished run"),
  store_updated_at: TimestampJson.nullable().describe("when the store's batch row last changed; null without a row"),
  workers: z
    .object({
      here: z.array(z.number().int()).describe('pids of the live workers on this machine that poll the shared task queue'),
      elsewhere: z.array(z.string()).describe('identities (pid@hostname) of workers on other machines that polled in the last five minutes'),
    })
    .nullable()
    .describe("who can run the batch's workflow now; null when it is not live"),
  waiting: z.string().nullable().describe('what the batch waits for (a worker, Temporal) and how to go on, in words; null when it waits for nothing'),
  hosts: z.array(HostJson).describe('hosts with a live worker; empty when the batch is not live'),
  lost_hosts: z.array(LostHostJson).describe('hosts without a live worker that hold running runs; empty when the batch is not live'),
  runs: z.array(StatusRunJson).describe('every run of the batch, by run id (empty when neither the store nor the workflow lists any)'),
  candidate: z
    .object({
      name: z.string().describe('the candidate, by its configured name'),
      adapter: z.string().nullable().describe('its adapter (claude-code, codex, command, …); null when the spec does not say'),
      model: z.string().nullable().describe("the candidate's model, when configured"),
      parallelism: z.number().int().nullable().describe('runs at the same time; null when the batch row does not say'),
      runs_per_case: z.number().int().describe('runs of each case (--runs-per-case; 1 when the spec does not say)'),
    })
    .nullable()
    .describe("the candidate as the batch's spec names it; null when it names none (or the store has no row)"),
  started_at: TimestampJson.nullable().describe('when the batch started; null when neither the store nor Temporal says'),
});
export type StatusJson = z.input<typeof StatusJson>;
