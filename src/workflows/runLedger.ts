import { isolationOf } from '../containment/isolationOf.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import type { RunSpec } from '../run/runSpec.js';

/** What the run learns as it goes; handed to the record stage once, at the end. */
export interface RunLedger {
  facts: RunFacts;
  anomalies: RunAnomaly[];
  /** Activity attempts retried for infrastructure reasons, per stage. */
  retries: Map<string, number>;
}

export function initialFacts(spec: RunSpec): RunFacts {
  return { turnsUsed: 0, maxTurns: spec.evalCase.maxTurns, turnLimitHit: false, examinerEnded: false, isolation: isolationOf(spec.candidate) };
}

/** A stage that runs again on the same host (its worker came back) reports the same anomalies again: keep one. */
export function addAnomalies(ledger: RunLedger, anomalies: readonly RunAnomaly[]): void {
  for (const anomaly of anomalies) {
    const text = JSON.stringify(anomaly);
    if (!ledger.anomalies.some((known) => JSON.stringify(known) === text)) ledger.anomalies.push(anomaly);
  }
}

export function countRetries(ledger: RunLedger, stage: string, attempt: number): void {
  if (attempt > 1) ledger.retries.set(stage, (ledger.retries.get(stage) ?? 0) + attempt - 1);
}
