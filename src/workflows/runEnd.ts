import type { CheckResult } from '../evalset/checkResult.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunRecordInput } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { hostOfQueue } from '../temporal/names.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunStatus } from '../vocabulary/runStatus.js';
import { describeFailure } from './failureText.js';
import { said, type StageMove } from './runDisplay.js';
import { claimHost, type Host, hostStage } from './runHost.js';
import { addAnomalies, initialFacts, type RunLedger } from './runLedger.js';
import { isHostLost } from './stageFailures.js';

/** A run whose host was lost starts again on another host at most this often. */
export const MAX_HOST_RESTARTS = 2;

/** What the run's stages came to: what the record stage is handed. */
export interface RunEnding {
  status: RunStatus;
  error?: string;
  postconditions: CheckResult[];
  verdict: RunVerdict | null;
}

/** Where the run is: its host, the generation it runs there, and how often it started again on another host. */
export interface RunAttempt {
  host: Host;
  generation: number;
  restarts: number;
}

/** How the run moves: the host of a queue, and the run's claim on a live host after it lost its own. */
export interface RunMover {
  onHost(queue: string): Host;
  fewerWrites: boolean;
}

export interface Recorded {
  input: RunRecordInput;
  outcome: RunOutcome;
}

/** Cleanup and record went to a host that was lost: during which, and what cleanup said before. */
interface LostRecord {
  lostIn: 'cleanup' | 'record';
  anomalies: RunAnomaly[];
}

/**
 * Cleanup, then record, on the run's host. When that host is lost meanwhile (its queue's
 * record task is not picked up in the run's `hostLostAfterS`), the run claims a live host:
 * the same one come back cleans up and records again (both are safe to repeat); another one
 * starts the run again from prepare (null: the caller runs its stages there), unless the run
 * was cancelled or has no restart left: then that host records it as it ended (infra_error
 * past the restarts), without running a stage again.
 */
export async function endRun(spec: RunSpec, attempt: RunAttempt, ledger: RunLedger, ending: RunEnding, stage: StageMove, mover: RunMover): Promise<Recorded | null> {
  for (;;) {
    const tried = await cleanUpAndRecord(spec, attempt, ledger, ending, stage);
    if ('outcome' in tried) return tried;
    const claimed = await claimLiveHost(spec, attempt, mover);
    if (claimed === null) continue;
    const { lost, next } = claimed;
    addAnomalies(ledger, tried.anomalies);
    const restart = ending.status !== 'cancelled' && attempt.restarts < MAX_HOST_RESTARTS;
    const host = hostOfQueue(lost) ?? lost;
    const givenUp = ledger.anomalies.some((a) => a.kind === 'host_lost' && a.host === host && a.restartedOn === null);
    // A run that gave up on this host during its stages and then lost it in cleanup says the loss once.
    if (restart || !givenUp) ledger.anomalies.push({ kind: 'host_lost', host, stage: tried.lostIn, restartedOn: restart ? (hostOfQueue(next) ?? next) : null });
    if (restart) {
      restartOn(next, spec, attempt, ledger, mover);
      return null;
    }
    attempt.generation += 1;
    attempt.host = mover.onHost(next);
    if (ending.status !== 'cancelled' && ending.status !== 'infra_error') {
      ending.status = 'infra_error';
      ending.error = `host ${host} was lost during ${tried.lostIn}, after ${attempt.restarts} restart(s) on other hosts`;
      ending.verdict = null;
    }
  }
}

/**
 * The live host a run claims after its own was lost, with the lost one's queue; null when
 * the lost host's worker is back (every stage picks up where it was).
 */
export async function claimLiveHost(spec: RunSpec, attempt: RunAttempt, mover: RunMover): Promise<{ lost: string; next: string } | null> {
  // Only a queued host stage is lost, and only a claimed host has a queue.
  const lost = attempt.host.queue ?? 'no host';
  const next = await claimHost(mover.fewerWrites, { runId: spec.runId, candidate: spec.candidate, generation: attempt.generation + 1, lost });
  return next === lost ? null : { lost, next };
}

/** The run starts again from prepare on the host of `queue`, as a new generation. */
export function restartOn(queue: string, spec: RunSpec, attempt: RunAttempt, ledger: RunLedger, mover: RunMover): void {
  attempt.restarts += 1;
  attempt.generation += 1;
  ledger.facts = initialFacts(spec);
  attempt.host = mover.onHost(queue);
}

/**
 * Cleanup and record on the run's host, once. Cleanup's trouble goes into the record; the
 * ledger takes the record's anomalies only once it is written, so a try repeated elsewhere
 * does not say the lost one's twice.
 */
async function cleanUpAndRecord(spec: RunSpec, attempt: RunAttempt, ledger: RunLedger, ending: RunEnding, stage: StageMove): Promise<Recorded | LostRecord> {
  const { host, generation } = attempt;
  stage('cleanup');
  // A run the infrastructure stopped after the candidate worked keeps its sandbox for `evalflow resume`.
  const park = ending.status === 'infra_error' && ledger.facts.turnsUsed > 0;
  const cleanup: RunAnomaly[] = [];
  let parked = false;
  let cleanupLost = false;
  try {
    const cleaned = await hostStage(host, 'cleanupRun', said('cleanup', generation), [{ spec, park }]);
    cleanup.push(...cleaned.anomalies);
    parked = cleaned.parked;
  } catch (err) {
    // A lost host's cleanup is said by the host_lost anomaly, should its record be lost too.
    cleanupLost = isHostLost(err);
    cleanup.push({ kind: 'cleanup', detail: `cleanup failed: ${describeFailure(err)}` });
  }
  stage('record');
  const anomalies = [...ledger.anomalies, ...cleanup];
  const retried = [...ledger.retries.entries()];
  const count = retried.reduce((sum, [, n]) => sum + n, 0);
  if (count > 0) anomalies.push({ kind: 'infra_retries', count, detail: retried.map(([name, n]) => `${name} ×${n}`).join(', ') });
  const { status, postconditions, verdict } = ending;
  const input: RunRecordInput = { spec, status, facts: ledger.facts, postconditions, verdict, anomalies, error: ending.error ?? null, parked };
  try {
    const outcome = await hostStage(host, 'recordRun', said('record', generation), [input]);
    ledger.anomalies = anomalies;
    return { input, outcome };
  } catch (err) {
    if (!isHostLost(err)) throw err;
    return { lostIn: cleanupLost ? 'cleanup' : 'record', anomalies: cleanupLost ? [] : cleanup };
  }
}
