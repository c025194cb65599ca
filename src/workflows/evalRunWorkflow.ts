import { ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CheckResult } from '../evalset/checkResult.js';
import { judgingOf } from '../run/judging.js';
import type { RunProgress } from '../run/progress.js';
import { recoveryOf } from '../run/recovery.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunRecordInput } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunStatus } from '../vocabulary/runStatus.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { runEnded, runPlace } from '../run/story.js';
import { hostOfQueue, hostTaskQueue, searchAttributes } from '../temporal/names.js';
import { runProgressQuery } from './definitions.js';
import { dialogue } from './dialogue.js';
import { describeFailure } from './failureText.js';
import { attemptHosts, outcomeAttributes, upsertVerdictMemo } from './outcomeAttributes.js';
import { candidateProfile, hostProfile, modelProfile } from './profiles.js';
import { runDisplay, said, type RunDisplay } from './runDisplay.js';
import { claimHost, type Host, hostStage } from './runHost.js';
import { initialFacts, type RunLedger, countRetries } from './runLedger.js';
import { runPatch, runPatches } from './runPatches.js';
import { acceptReview, awaitReview } from './runReview.js';
import { isHostLost } from './stageFailures.js';

const model = proxyActivities<Activities>(modelProfile);

/** A run whose host was lost starts again on another host at most this often. */
const MAX_HOST_RESTARTS = 2;

/**
 * One eval run: prepare → setup → dialogue → verify → judge, then cleanup and record, always.
 * Everything touching the sandbox runs on the host claimed first, so one run's files stay
 * on one host: the candidate's turns on its queue, the short host stages inside the workflow
 * task when the worker running it is that host (it usually is: the claim is its own). When
 * that host has had no worker for the run's `hostLostAfterS`, the run claims a live host:
 * the same one come back continues where it was (every stage is idempotent), another one
 * starts the run again from prepare as a new generation (at most twice). The stages report what they saw (retries, repeated spend, outages, notes); the
 * workflow collects it and hands it to the record stage once, after cleanup, so cleanup's
 * own trouble reaches review.md and the store too.
 */
export async function evalRunWorkflow(spec: RunSpec): Promise<RunOutcome> {
  const progress: RunProgress = { runId: spec.runId, stage: 'prepare', turn: 0, maxTurns: spec.evalCase.maxTurns };
  setHandler(runProgressQuery, () => progress);
  const review = acceptReview(spec.runId, progress);
  const { claimWithPrepare, hostStagesHere, fewerWrites } = runPatches();
  const display = runDisplay(progress, fewerWrites);
  const { stage } = display;
  const recovery = recoveryOf(spec);
  const onHost = (queue: string | null): Host => {
    const host: Host = {
      queue,
      run: proxyActivities<Activities>({ ...hostProfile(recovery), ...(queue ? { taskQueue: queue } : {}) }),
      candidate: proxyActivities<Activities>({ ...candidateProfile(spec.turnTimeoutS, recovery), ...(queue ? { taskQueue: queue } : {}) }),
      here: hostStagesHere,
      claim: (claimed) => Object.assign(host, onHost(claimed)),
    };
    return host;
  };

  const ledger: RunLedger = { facts: initialFacts(spec), anomalies: [], retries: new Map() };
  let host = onHost(spec.host ? hostTaskQueue(spec.host) : claimWithPrepare ? null : await claimHost(fewerWrites));
  let generation = 0;
  let restarts = 0;
  let status: RunStatus = 'completed';
  let error: string | undefined;
  let postconditions: CheckResult[] = [];
  let verdict: RunVerdict | null = null;

  for (;;) {
    try {
      const result = await runStages(spec, host, generation, ledger, progress, display);
      ({ status, postconditions, verdict } = result);
      error = result.error;
      break;
    } catch (err) {
      if (isCancellation(err)) {
        status = 'cancelled';
        error = 'the run was cancelled';
        break;
      }
      if (!isHostLost(err)) {
        status = 'infra_error';
        error = describeFailure(err);
        break;
      }
      // Only a queued host stage is lost, and only a claimed host has a queue.
      const lost = host.queue ?? 'no host';
      const next = await claimHost(fewerWrites, { runId: spec.runId, candidate: spec.candidate, generation: generation + 1, lost });
      if (next === lost) continue; // its worker is back: every stage picks up where it was
      const lostStage = progress.stage;
      if (restarts >= MAX_HOST_RESTARTS) {
        ledger.anomalies.push({ kind: 'host_lost', host: hostOfQueue(lost) ?? lost, stage: lostStage, restartedOn: null });
        status = 'infra_error';
        error = `host ${hostOfQueue(lost) ?? lost} was lost during ${lostStage}, after ${restarts} restart(s) on other hosts`;
        break;
      }
      ledger.anomalies.push({ kind: 'host_lost', host: hostOfQueue(lost) ?? lost, stage: lostStage, restartedOn: hostOfQueue(next) ?? next });
      restarts += 1;
      generation += 1;
      ledger.facts = initialFacts(spec);
      host = onHost(next);
    }
  }

  // Clean up and record even when cancelled: a cancelled run still leaves its files and row.
  const recorded = await CancellationScope.nonCancellable(async () => {
    stage('cleanup');
    // A run the infrastructure stopped after the candidate worked keeps its sandbox for `evalflow resume`.
    const park = status === 'infra_error' && ledger.facts.turnsUsed > 0;
    let parked = false;
    try {
      const cleaned = await hostStage(host, 'cleanupRun', said('cleanup', generation), [{ spec, park }]);
      ledger.anomalies.push(...cleaned.anomalies);
      parked = cleaned.parked;
    } catch (err) {
      ledger.anomalies.push({ kind: 'cleanup', detail: `cleanup failed: ${describeFailure(err)}` });
    }
    stage('record');
    const retried = [...ledger.retries.entries()];
    const count = retried.reduce((sum, [, n]) => sum + n, 0);
    if (count > 0) ledger.anomalies.push({ kind: 'infra_retries', count, detail: retried.map(([name, n]) => `${name} ×${n}`).join(', ') });
    const input: RunRecordInput = { spec, status, facts: ledger.facts, postconditions, verdict, anomalies: ledger.anomalies, error: error ?? null, parked };
    return { input, outcome: await hostStage(host, 'recordRun', said('record', generation), [input]) };
  });
  let outcome = recorded.outcome;
  if (outcome.status === 'needs_review' && judgingOf(spec).review === 'wait') {
    outcome = await awaitReview(spec, host, recorded.input, outcome, review, display);
  }
  const reviewed = outcome !== recorded.outcome;
  stage('done', outcomeAttributes(outcome));
  if (patched(runPatch.verdictMemo)) upsertVerdictMemo(spec, outcome, attemptHosts(ledger.anomalies, host.queue));
  if (!reviewed) display.show(runEnded(outcome));
  if (status === 'cancelled') throw ApplicationFailure.nonRetryable('the run was cancelled', 'RunCancelled', outcome);
  return outcome;
}

interface StagesResult {
  status: RunStatus;
  error?: string;
  postconditions: CheckResult[];
  verdict: RunVerdict | null;
}

/** prepare → setup → dialogue → verify → judge on one host, in one generation. */
async function runStages(spec: RunSpec, host: Host, generation: number, ledger: RunLedger, progress: RunProgress, display: RunDisplay): Promise<StagesResult> {
  const { stage, tell } = display;
  stage('prepare');
  const prepared = await hostStage(host, 'prepareRun', said('prepare · run directory, workflow snapshot, sandbox', generation), [spec]);
  // The run dir is the prepare stage's result: where the worker that ran it writes, which the static details cannot know.
  display.place(runPlace(spec, prepared.runDir, host.queue ? (hostOfQueue(host.queue) ?? host.queue) : null));
  stage('setup', [{ key: searchAttributes.workflowRev, value: prepared.workflowRev }]);
  const setup = await hostStage(host, 'setupSandbox', said('setup · commands and preconditions', generation), [{ spec, generation }]);
  if (setup.aborted) return { status: 'aborted', ...(setup.reason ? { error: setup.reason } : {}), postconditions: [], verdict: null };

  stage('dialogue');
  await dialogue(spec, host, generation, ledger, progress, tell);

  stage('verify');
  const postconditions = await hostStage(host, 'verifyRun', said('verify · postconditions', generation), [spec]);

  stage('judge');
  try {
    const judged = await model.judgeRun.executeWithOptions(said('judge', generation), [{ spec, facts: ledger.facts, postconditions, generation }]);
    countRetries(ledger, 'judge', judged.attempt);
    ledger.anomalies.push(...judged.anomalies);
    return { status: 'completed', postconditions, verdict: judged.verdict };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { status: 'judge_failed', error: describeFailure(err), postconditions, verdict: null };
  }
}
