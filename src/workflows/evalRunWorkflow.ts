import { ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { judgingOf } from '../run/judging.js';
import type { RunProgress } from '../run/progress.js';
import { recoveryOf } from '../run/recovery.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunStatus } from '../vocabulary/runStatus.js';
import { runEnded, runPlace } from '../run/story.js';
import { hostOfQueue, hostTaskQueue, searchAttributes } from '../temporal/names.js';
import { runProgressQuery } from './definitions.js';
import { dialogue } from './dialogue.js';
import { describeFailure } from './failureText.js';
import { attemptHosts, outcomeAttributes, upsertVerdictMemo } from './outcomeAttributes.js';
import { candidateProfile, hostProfile, modelProfile } from './profiles.js';
import { runDisplay, said, type RunDisplay } from './runDisplay.js';
import { claimLiveHost, endRun, MAX_HOST_RESTARTS, restartOn, type Recorded, type RunAttempt, type RunEnding, type RunMover } from './runEnd.js';
import { claimHost, type Host, hostStage } from './runHost.js';
import { initialFacts, type RunLedger, countRetries } from './runLedger.js';
import { runPatch, runPatches } from './runPatches.js';
import { acceptReview, awaitReview } from './runReview.js';
import { isHostLost } from './stageFailures.js';

const model = proxyActivities<Activities>(modelProfile);

/**
 * One eval run: prepare → setup → dialogue → verify → judge, then cleanup and record, always.
 * Everything touching the sandbox runs on the host claimed first, so one run's files stay
 * on one host: the candidate's turns on its queue, the short host stages inside the workflow
 * task when the worker running it is that host (it usually is: the claim is its own). When
 * that host has had no worker for the run's `hostLostAfterS`, the run claims a live host:
 * the same one come back continues where it was (every stage is idempotent), another one
 * starts the run again from prepare as a new generation (at most twice), whether the host
 * was lost during the stages or during cleanup and record (see `endRun`). The stages report
 * what they saw (retries, repeated spend, outages, notes); the workflow collects it and hands
 * it to the record stage once, after cleanup, so cleanup's own trouble reaches review.md and
 * the store too.
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
  const attempt: RunAttempt = {
    host: onHost(spec.host ? hostTaskQueue(spec.host) : claimWithPrepare ? null : await claimHost(fewerWrites)),
    generation: 0,
    restarts: 0,
  };
  const mover: RunMover = { onHost, fewerWrites };
  let recorded: Recorded | null = null;
  let status: RunStatus = 'completed';
  while (recorded === null) {
    const ending = await runGenerations(spec, attempt, ledger, progress, display, mover);
    // Clean up and record even when cancelled: a cancelled run still leaves its files and row.
    recorded = await CancellationScope.nonCancellable(() => endRun(spec, attempt, ledger, ending, stage, mover));
    status = ending.status;
  }
  const { host } = attempt;
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

/**
 * The run's stages, on its host, until they end: when the host is lost, on a live host, the
 * same one come back continuing where it was, another one from prepare as a new generation
 * (at most MAX_HOST_RESTARTS times; then the run ends infra_error).
 */
async function runGenerations(spec: RunSpec, attempt: RunAttempt, ledger: RunLedger, progress: RunProgress, display: RunDisplay, mover: RunMover): Promise<RunEnding> {
  for (;;) {
    try {
      return await runStages(spec, attempt.host, attempt.generation, ledger, progress, display);
    } catch (err) {
      if (isCancellation(err)) return { status: 'cancelled', error: 'the run was cancelled', postconditions: [], verdict: null };
      if (!isHostLost(err)) return { status: 'infra_error', error: describeFailure(err), postconditions: [], verdict: null };
      const claimed = await claimLiveHost(spec, attempt, mover);
      if (claimed === null) continue;
      const { lost, next } = claimed;
      const lostStage = progress.stage;
      const host = hostOfQueue(lost) ?? lost;
      if (attempt.restarts >= MAX_HOST_RESTARTS) {
        ledger.anomalies.push({ kind: 'host_lost', host, stage: lostStage, restartedOn: null });
        return { status: 'infra_error', error: `host ${host} was lost during ${lostStage}, after ${attempt.restarts} restart(s) on other hosts`, postconditions: [], verdict: null };
      }
      ledger.anomalies.push({ kind: 'host_lost', host, stage: lostStage, restartedOn: hostOfQueue(next) ?? next });
      restartOn(next, spec, attempt, ledger, mover);
    }
  }
}

/** prepare → setup → dialogue → verify → judge on one host, in one generation. */
async function runStages(spec: RunSpec, host: Host, generation: number, ledger: RunLedger, progress: RunProgress, display: RunDisplay): Promise<RunEnding> {
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
