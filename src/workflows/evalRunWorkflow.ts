import {
  type ActivityInterfaceFor,
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  TimeoutFailure,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { type SearchAttributeUpdatePair, TimeoutType } from '@temporalio/common';
import type { Activities, HostStage, HostStageResult, HostStages } from '../activities/index.js';
import type { CandidateSession } from '../candidates/adapter.js';
import { isolationOf } from '../containment/isolationOf.js';
import type { CheckResult } from '../evalset/checkResult.js';
import type { RunAnomaly } from '../run/anomaly.js';
import { judgingOf } from '../run/judging.js';
import type { RunProgress } from '../run/progress.js';
import { recoveryOf } from '../run/recovery.js';
import type { ReviewDecision } from '../run/reviewDecision.js';
import { reviewCommand, secondDecisionRefused, waitingDetails } from '../run/reviewText.js';
import type { RunFacts } from '../run/runFacts.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunRecordInput } from '../run/runRecord.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunStatus } from '../run/runStatus.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { runEnded, runPosition, type RunPosition } from '../run/story.js';
import { hostOfQueue, hostTaskQueue, searchAttributes } from '../temporal/names.js';
import { reviewRunUpdate, runProgressQuery } from './definitions.js';
import { outcomeAttributes, upsertOutcomeAttributes } from './outcomeAttributes.js';
import { candidateProfile, hostLocalProfile, hostProfile, localProfile, modelProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const model = proxyActivities<Activities>(modelProfile);
const local = proxyLocalActivities<Activities>(localProfile);
const hostLocal = proxyLocalActivities<Activities>(hostLocalProfile);

/**
 * The host is claimed by the worker that runs the workflow task: a local activity, no round
 * trip through a task queue. Runs started before this change keep the queued activity. Runs
 * started with fewer writes claim locally without asking the older patch (each patch asked
 * is a marker and a search attribute write).
 */
function claimHost(fewerWrites: boolean): Promise<string> {
  return fewerWrites || patched('claim-host-locally') ? local.claimHost() : shared.claimHost();
}

/** A run whose host was lost starts again on another host at most this often. */
const MAX_HOST_RESTARTS = 2;

/** What the run learns as it goes; handed to the record stage once, at the end. */
interface RunLedger {
  facts: RunFacts;
  anomalies: RunAnomaly[];
  /** Activity attempts retried for infrastructure reasons, per stage. */
  retries: Map<string, number>;
}

/** Where a person's review of the run stands (`--review wait`). */
interface ReviewState {
  /** The run has recorded needs_review and waits for the decision. */
  waiting: boolean;
  decision: ReviewDecision | null;
  /** How recording the decision ended: the outcome, or why it was refused. */
  settled: { outcome: RunOutcome } | { refused: string } | null;
}

/** Moves the run to a stage: its progress, current details and search attribute, plus `also` written with it. */
type StageMove = (name: string, also?: SearchAttributeUpdatePair[]) => void;

/** The activities of one host: its queue, with the run's timeouts. */
interface Host {
  /** Null until the run's first host stage claims the host of the worker running it (nothing is queued before). */
  queue: string | null;
  run: ActivityInterfaceFor<Activities>;
  candidate: ActivityInterfaceFor<Activities>;
  /** Host stages are tried inside the workflow task first (until a worker that is not the host refuses one). */
  here: boolean;
  /** Makes `queue` the run's host, once its first host stage has claimed it. */
  claim(queue: string): void;
}

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
  const review: ReviewState = { waiting: false, decision: null, settled: null };
  setHandler(
    reviewRunUpdate,
    async (decision) => {
      review.decision = decision;
      await condition(() => review.settled !== null);
      if (review.settled && 'refused' in review.settled) throw ApplicationFailure.nonRetryable(review.settled.refused, 'ReviewError');
      return (review.settled as { outcome: RunOutcome }).outcome;
    },
    { validator: (decision) => validateDecision(spec.runId, review, progress.stage, decision) },
  );
  // What the Web UI's current details say; each stage and each dialogue step moves it.
  const position: RunPosition = { stage: 'prepare', turn: 0, maxTurns: spec.evalCase.maxTurns, toolCalls: 0 };
  const tell = (change: Partial<RunPosition>) => {
    Object.assign(position, change, { turn: progress.turn });
    setCurrentDetails(runPosition(position));
  };
  // Since this patch the run's first host stage claims its host (one local activity, not
  // two). Runs started since it run their host stages here too, without asking that older
  // patch (each patch asked is a marker and a search attribute write).
  const claimWithPrepare = patched('claim-with-prepare');
  // Host stages run inside the workflow task on the run's own host, since this patch. Runs
  // started since it also write fewer search attributes without asking that older patch.
  const hostStagesHere = claimWithPrepare || patched('host-stages-here');
  // Each search attribute write is a visibility write on the server: runs started since this
  // patch write the stage only when it changes (the batch starts a run at prepare), together
  // with whatever else is written at that point.
  const fewerWrites = hostStagesHere || patched('fewer-search-attribute-writes');
  let shownStage = workflowInfo().typedSearchAttributes.get(searchAttributes.stage);
  const stage: StageMove = (name, also = []) => {
    progress.stage = name;
    if (fewerWrites) {
      const changes = [...(shownStage === name ? [] : [{ key: searchAttributes.stage, value: name }]), ...also];
      if (changes.length > 0) upsertSearchAttributes(changes);
      shownStage = name;
    } else {
      upsertSearchAttributes([{ key: searchAttributes.stage, value: name }]);
      if (also.length > 0) upsertSearchAttributes(also);
    }
    tell({ stage: name });
  };
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
      const result = await runStages(spec, host, generation, ledger, progress, stage, tell);
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
      const next = await claimHost(fewerWrites);
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
    outcome = await awaitReview(spec, host, recorded.input, outcome, review, stage);
  }
  const reviewed = outcome !== recorded.outcome;
  stage('done', outcomeAttributes(outcome));
  if (!reviewed) setCurrentDetails(runEnded(outcome));
  if (status === 'cancelled') throw ApplicationFailure.nonRetryable('the run was cancelled', 'RunCancelled', outcome);
  return outcome;
}

/**
 * `--review wait`: the run has recorded needs_review and now waits, durably and for as long
 * as it takes, for a person's decision (the `reviewRun` update); its current details in the
 * Web UI say so. The decision goes to the store on the shared queue first, so it survives a
 * host that is gone by then; then the host rewrites the run's files and row as completed. A
 * cancellation while waiting leaves the run needs_review, to be decided later from the store.
 */
async function awaitReview(spec: RunSpec, host: Host, input: RunRecordInput, recorded: RunOutcome, review: ReviewState, stage: StageMove): Promise<RunOutcome> {
  stage('review');
  upsertOutcomeAttributes(recorded);
  setCurrentDetails(waitingDetails(spec.runId, input.verdict?.score.review_reasons ?? []));
  review.waiting = true;
  try {
    await condition(() => review.decision !== null);
  } catch (err) {
    if (!isCancellation(err)) throw err;
    review.waiting = false;
    setCurrentDetails(`cancelled while waiting for a person's review: the run stays needs_review; decide later with ${reviewCommand(spec.runId)}`);
    return recorded;
  }
  review.waiting = false;
  const decision = review.decision;
  if (!decision) return recorded;
  let outcome = recorded;
  let details = `reviewed: ${decision.result} by ${decision.author}`;
  await CancellationScope.nonCancellable(async () => {
    try {
      outcome = await shared.recordReview({ runId: spec.runId, decision });
    } catch (err) {
      details = `a person's decision was refused: ${causeMessage(err)}`;
      review.settled = { refused: causeMessage(err) };
      return;
    }
    try {
      outcome = await hostStage(host, 'recordRun', {}, [input]);
    } catch (err) {
      // The decision is in the store; only the run directory's files could not be rewritten.
      details += `; review.md not rewritten: ${describeFailure(err)}`;
    }
    review.settled = { outcome };
  });
  setCurrentDetails(details);
  await condition(allHandlersFinished);
  return outcome;
}

/** The update's validator: throws (so the update is refused, unrecorded) unless the run waits and has no decision yet. */
function validateDecision(runId: string, review: ReviewState, stage: string, decision: ReviewDecision): void {
  if (review.decision) throw new Error(secondDecisionRefused(runId, review.decision));
  if (!review.waiting) throw new Error(`run ${runId} is not waiting for a person's review (it is at stage ${stage}); decide once it waits for one, or once it has ended needs_review`);
  if (decision.result !== 'pass' && decision.result !== 'fail') throw new Error(`a decision's result must be pass or fail, found ${JSON.stringify(decision.result)}`);
  if (!decision.author || !decision.note) throw new Error('a decision needs its author and a note saying why');
}

interface StagesResult {
  status: RunStatus;
  error?: string;
  postconditions: CheckResult[];
  verdict: RunVerdict | null;
}

/** prepare → setup → dialogue → verify → judge on one host, in one generation. */
async function runStages(
  spec: RunSpec,
  host: Host,
  generation: number,
  ledger: RunLedger,
  progress: RunProgress,
  stage: StageMove,
  tell: (change: Partial<RunPosition>) => void,
): Promise<StagesResult> {
  stage('prepare');
  const prepared = await hostStage(host, 'prepareRun', said('prepare · run directory, workflow snapshot, sandbox', generation), [spec]);
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

/**
 * examiner ↔ candidate until the examiner says `<<END>>`, the candidate fails its turn, or
 * max_turns. Updates the ledger as it goes, so a run that fails mid-dialogue still records
 * the turns it used and the retries it took.
 */
async function dialogue(spec: RunSpec, host: Host, generation: number, ledger: RunLedger, progress: RunProgress, tell: (change: Partial<RunPosition>) => void): Promise<void> {
  const { facts } = ledger;
  let session: CandidateSession | undefined;
  let toolCalls = 0;
  for (let turn = 1; turn <= spec.evalCase.maxTurns; turn++) {
    progress.turn = turn;
    tell({ actor: 'examiner' });
    const examined = await model.examinerTurn.executeWithOptions(said(`turn ${turn} · examiner`, generation), [{ spec, turn, generation }]);
    countRetries(ledger, 'examiner', examined.attempt);
    addAnomalies(ledger, examined.anomalies);
    if (examined.ended) {
      facts.examinerEnded = true;
      return;
    }
    tell({ actor: 'candidate' });
    const answered = await host.candidate.candidateTurn.executeWithOptions(said(`turn ${turn} · candidate`, generation), [
      { spec, turn, message: examined.message, session: session ?? null, generation },
    ]);
    facts.turnsUsed = turn;
    toolCalls += answered.toolCalls ?? 0;
    tell({ toolCalls });
    countRetries(ledger, 'candidate', answered.attempt);
    addAnomalies(ledger, answered.anomalies);
    session = answered.session;
    if (answered.failure) {
      facts.candidateFailure = `turn ${turn}: ${answered.failure}`;
      addAnomalies(ledger, [
        /timed out/.test(answered.failure)
          ? { kind: 'timeout', detail: `candidate turn ${turn}: ${answered.failure}` }
          : { kind: 'other', detail: `candidate failed turn ${turn}: ${answered.failure}` },
      ]);
      return;
    }
  }
  facts.turnLimitHit = true;
}

/**
 * A stage on the run's host: inside this workflow task (a local activity, no round trip
 * through the host's queue) while the worker running it is that host, else on the host's
 * queue. A worker that is not the host refuses at once, and the run stops asking. A run
 * with no host yet has its first host stage run here, and this worker's host becomes its own.
 */
async function hostStage<K extends HostStage>(host: Host, stage: K, options: { summary?: string }, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> {
  if (host.queue === null) {
    const claimed = await hostLocal.claimHostStage.executeWithOptions(options, [{ stage, args }]).catch((err: unknown) => {
      throw asStageFailure(stage, err);
    });
    host.claim(claimed.queue);
    return claimed.result as HostStageResult<K>;
  }
  if (host.here) {
    try {
      return (await hostLocal.runHostStage.executeWithOptions(options, [{ queue: host.queue, stage, args }])) as HostStageResult<K>;
    } catch (err) {
      if (!isOtherHost(err)) throw asStageFailure(stage, err);
      host.here = false;
    }
  }
  const queued = host.run[stage] as unknown as { executeWithOptions(options: { summary?: string }, args: Parameters<HostStages[K]>): Promise<HostStageResult<K>> };
  return queued.executeWithOptions(options, args);
}

/** An activity's summary in the Web UI; a run started again on another host says which attempt of the run this is. */
function said(summary: string, generation: number): { summary: string } {
  return { summary: generation > 0 ? `${summary} · attempt ${generation + 1}` : summary };
}

function initialFacts(spec: RunSpec): RunFacts {
  return { turnsUsed: 0, maxTurns: spec.evalCase.maxTurns, turnLimitHit: false, examinerEnded: false, isolation: isolationOf(spec.candidate) };
}

/** A stage that runs again on the same host (its worker came back) reports the same anomalies again: keep one. */
function addAnomalies(ledger: RunLedger, anomalies: readonly RunAnomaly[]): void {
  for (const anomaly of anomalies) {
    const text = JSON.stringify(anomaly);
    if (!ledger.anomalies.some((known) => JSON.stringify(known) === text)) ledger.anomalies.push(anomaly);
  }
}

function countRetries(ledger: RunLedger, stage: string, attempt: number): void {
  if (attempt > 1) ledger.retries.set(stage, (ledger.retries.get(stage) ?? 0) + attempt - 1);
}

/** A host stage refused by a worker that is not the run's host (a local activity's failure comes unwrapped). */
function isOtherHost(err: unknown): boolean {
  return err instanceof ApplicationFailure && err.type === 'OtherHostError';
}

/**
 * A local activity's failure, wrapped as a queued activity's is, so that a stage's failure
 * reads the same wherever it ran (`prepareRun failed: SandboxError: …`).
 */
function asStageFailure(stage: HostStage, err: unknown): unknown {
  return err instanceof ApplicationFailure || err instanceof TimeoutFailure ? new ActivityFailure('Activity task failed', stage, undefined, undefined, undefined, err) : err;
}

/** A host-queue activity that no worker picked up within the run's `hostLostAfterS`. */
function isHostLost(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START;
}

/** The message of what an activity threw, without the activity wrapper's words. */
function causeMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure && err.cause ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

function describeFailure(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) {
    const cause = err.cause;
    const type = cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ` : '';
    return `${err.activityType} failed: ${type}${cause.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
