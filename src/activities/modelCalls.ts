import type { LlmClient, LlmRole } from '../llm/port.js';
import { tolerateOutages, type OutageReport } from '../llm/outageTolerance.js';
import type { RunAnomaly, SpendRole } from '../vocabulary/anomaly.js';
import { recoveryOf } from '../run/recovery.js';
import type { ModelEndpoint, RunSpec } from '../run/runSpec.js';
import type { ActivityDeps } from './deps.js';
import { heartbeat } from './temporalContext.js';

/**
 * The model of a run's role, waiting out outages for the run's window (default an hour) with
 * each wait shown in the activity's heartbeat details; `outage()` is the anomaly to record
 * when it had to wait, else null.
 */
export function patientModel(deps: ActivityDeps, spec: RunSpec, role: LlmRole & SpendRole, endpoint: ModelEndpoint, turn: number): { llm: LlmClient; outage(): RunAnomaly | null } {
  const report: OutageReport = { retries: 0, waitedMs: 0, lastError: null };
  const llm = tolerateOutages(deps.llmFor(role, endpoint), {
    windowMs: recoveryOf(spec).modelOutageS * 1000,
    report,
    onWait: ({ retry, delayMs, error, failingForMs }) =>
      heartbeat({ waiting: `${role} model: ${error.message}; retry ${retry} in ${Math.round(delayMs / 1000)} s (failing for ${Math.round(failingForMs / 1000)} s)` }),
  });
  return {
    llm,
    outage: () =>
      report.retries === 0 ? null : { kind: 'model_outage', role, turn, retries: report.retries, waitedS: Math.round(report.waitedMs / 100) / 10, lastError: report.lastError ?? 'unknown' },
  };
}
