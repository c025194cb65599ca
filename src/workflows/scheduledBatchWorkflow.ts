import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { Activities, PreparedScheduledBatch } from '../activities/index.js';
import type { BatchInput } from '../run/batchInput.js';
import { makeBatchId, runStamp } from '../run/runId.js';
import { batchDetails, batchSummaryLine } from '../run/story.js';
import type { ScheduledBatchInput } from '../schedules/scheduleInput.js';
import type { ScheduleReport } from '../schedules/scheduleReport.js';
import { SHARED_TASK_QUEUE, searchAttributes } from '../temporal/names.js';
import { evalBatchWorkflow } from './evalBatchWorkflow.js';
import { sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const notifier = proxyActivities<Activities>({ ...sharedProfile, retry: { ...sharedProfile.retry, maximumAttempts: 3 } });

/** Temporal sets it on every workflow a schedule starts: the time the action was due (not when it started). */
const scheduledStartTime = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/**
 * One firing of an `evalflow schedule`: reads the bank and resolves the workflow_rev as they
 * are now, runs the batch as a child evalBatchWorkflow at the schedule's (lower) priority,
 * then compares it with the schedule's previous batch and its baseline, keeps and writes the
 * report, and hands it to `--notify`. A batch that measured nothing, or never ran, fails this
 * workflow after reporting it: the schedule's list of recent actions shows it red.
 */
export async function scheduledBatchWorkflow(input: ScheduledBatchInput): Promise<ScheduleReport> {
  const info = workflowInfo();
  const scheduledAt = (info.typedSearchAttributes.get(scheduledStartTime) ?? info.startTime).toISOString();
  const problems: string[] = [];
  setCurrentDetails('reading the eval bank and resolving the workflow_rev');
  let prepared: PreparedScheduledBatch | null = null;
  try {
    prepared = await shared.prepareScheduledBatch.executeWithOptions({ summary: 'prepare · bank, workflow_rev, batch id' }, [{ input, scheduledAt }]);
  } catch (err) {
    if (isCancellation(err)) throw err;
    problems.push(`not started: ${causeOf(err)}`);
  }
  const batchId = prepared?.batchId ?? makeBatchId(runStamp(new Date(scheduledAt)), input.schedule);
  if (prepared) {
    setCurrentDetails(`running batch ${batchId} · ${prepared.cases} case${prepared.cases === 1 ? '' : 's'} · rev ${prepared.workflowRev?.slice(0, 7) ?? 'as it is'}`);
    const batch = batchInputOf(input, prepared);
    try {
      await executeChild(evalBatchWorkflow, {
        workflowId: batchId,
        taskQueue: SHARED_TASK_QUEUE,
        args: [batch],
        // Runs inherit it: a batch started by hand (priority 3) overtakes the scheduled one on the same queues.
        priority: { priorityKey: input.priorityKey },
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        staticSummary: batchSummaryLine({ label: `schedule ${input.schedule}`, cases: prepared.cases, runsPerCase: input.selection.runsPerCase, candidate: input.template.candidate, parallelism: input.parallelism, ...(input.arms ? { arms: input.arms } : {}) }),
        staticDetails: batchDetails(batchId, input.selection, input.template.runsDir),
        typedSearchAttributes: [{ key: searchAttributes.batchId, value: batchId }],
      });
    } catch (err) {
      if (isCancellation(err)) throw err;
      problems.push(`the batch failed: ${causeOf(err)}`);
    }
  }
  setCurrentDetails(`comparing ${batchId} with the previous scheduled batch and the baseline`);
  const report = await shared.concludeScheduledBatch.executeWithOptions({ summary: 'compare · previous and baseline, write summaries' }, [
    { input, batchId, scheduledAt, workflowRev: prepared?.workflowRev ?? null, problems },
  ]);
  if (input.notify) {
    const notified = await notifier.notifySchedule
      .executeWithOptions({ summary: 'notify' }, [{ command: input.notify, report }])
      .catch((err: unknown) => ({ ok: false, detail: `--notify failed: ${causeOf(err)}` }));
    if (!notified.ok) report.problems.push(notified.detail);
  }
  setCurrentDetails(report.headline);
  if (report.verdict === 'failed') throw ApplicationFailure.nonRetryable(report.headline, 'ScheduledBatchFailed', report);
  return report;
}

function batchInputOf(input: ScheduledBatchInput, prepared: PreparedScheduledBatch): BatchInput {
  return {
    batchId: prepared.batchId,
    stamp: prepared.stamp,
    selection: {
      paths: input.selection.paths,
      // A --changed-only firing runs the cases prepare picked; other histories carry neither field.
      ...(prepared.only ? { only: prepared.only } : input.selection.only ? { only: input.selection.only } : {}),
      runsPerCase: input.selection.runsPerCase,
      digest: prepared.digest,
      ...(prepared.changedOnly ? { changedOnly: prepared.changedOnly } : {}),
    },
    total: null,
    template: { ...input.template, ...(prepared.workflowRev ? { workflowRev: prepared.workflowRev } : {}), ...(prepared.projectCommit ? { projectCommit: prepared.projectCommit } : {}) },
    ...(input.arms ? { arms: input.arms } : {}),
    parallelism: input.parallelism,
    summaries: input.summaries,
    schedule: input.schedule,
    offset: 0,
    counts: { finished: 0, passed: 0, failed: 0 },
    recent: [],
  };
}

function causeOf(err: unknown): string {
  let cause: unknown = err;
  while ((cause instanceof ActivityFailure || cause instanceof ChildWorkflowFailure) && cause.cause) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}
