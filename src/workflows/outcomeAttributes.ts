import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunOutcome } from '../run/runOutcome.js';
import { hostOfQueue, searchAttributes } from '../temporal/names.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
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
 * The host of each attempt, first attempt first: the host a lost host's run restarted on
 * follows the lost one (the anomalies say so), and the last is the host it ended on.
 */
export function attemptHosts(anomalies: readonly RunAnomaly[], lastQueue: string | null): string[] {
  const hosts: string[] = [];
  for (const anomaly of anomalies) {
    if (anomaly.kind !== 'host_lost') continue;
    if (hosts.length === 0) hosts.push(anomaly.host);
    if (anomaly.restartedOn) hosts.push(anomaly.restartedOn);
  }
  const last = lastQueue === null ? null : (hostOfQueue(lastQueue) ?? lastQueue);
  if (last !== null && hosts.at(-1) !== last) hosts.push(last);
  return hosts;
}

/**
 * What a finished run's memo says in the Web UI: its verdict in words, the host of each
 * attempt and its page in the viewer (at the address the config gives, `spec.viewerUrl`; none
 * when it is unknown). A memo is stored with the run, so the UI shows it with no worker running
 * (current details need a worker to answer a query).
 */
export function verdictMemo(spec: { runId: string; viewerUrl?: string | undefined }, outcome: RunOutcome, hosts: readonly string[] = []): Record<string, string> {
  const verdict = outcome.result ? `${outcome.result}${outcome.overall !== null ? `, overall ${outcome.overall}/5` : ''}` : outcome.status;
  const host = hosts.length === 1 ? hosts[0]! : hosts.map((h, i) => `${h} (attempt ${i + 1})`).join(', ');
  return { verdict: `${verdict} (status ${outcome.status})`, ...(host ? { host } : {}), ...(spec.viewerUrl ? { evalflow_view: viewerRunUrl(spec.runId, spec.viewerUrl) } : {}) };
}

export function upsertVerdictMemo(spec: { runId: string; viewerUrl?: string | undefined }, outcome: RunOutcome, hosts: readonly string[] = []): void {
  upsertMemo(verdictMemo(spec, outcome, hosts));
}
