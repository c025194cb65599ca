import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunOutcome } from '../run/runOutcome.js';
import { searchAttributes } from '../temporal/names.js';
import { viewerRunUrl } from '../vocabulary/viewer.js';

/** A run's final status, result and overall score as search attributes (run and rejudge alike). */
export function outcomeAttributes(outcome: RunOutcome): SearchAttributeUpdatePair[] {
  return [
    { key: searchAttributes.status, value: outcome.status },
    ...(outcome.result ? [{ key: searchAttributes.result, value: outcome.result }] : []),
    ...(outcome.overall !== null ? [{ key: searchAttributes.overall, value: outcome.overall }] : []),
  ];
}

export function upsertOutcomeAttributes(outcome: RunOutcome): void {
  upsertSearchAttributes(outcomeAttributes(outcome));
}

/**
 * What a finished run's memo says in the Web UI: its verdict in words and its page in the
 * viewer (at the address the config gives, `spec.viewerUrl`; none when it is unknown). A memo is
 * stored with the run, so the UI shows it with no worker running (current details need a worker
 * to answer a query).
 */
export function verdictMemo(spec: { runId: string; viewerUrl?: string | undefined }, outcome: RunOutcome): Record<string, string> {
  const verdict = outcome.result ? `${outcome.result}${outcome.overall !== null ? `, overall ${outcome.overall}/5` : ''}` : outcome.status;
  return { verdict: `${verdict} (status ${outcome.status})`, ...(spec.viewerUrl ? { evalflow_view: viewerRunUrl(spec.runId, spec.viewerUrl) } : {}) };
}

export function upsertVerdictMemo(spec: { runId: string; viewerUrl?: string | undefined }, outcome: RunOutcome): void {
  upsertMemo(verdictMemo(spec, outcome));
}
