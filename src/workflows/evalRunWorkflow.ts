import { ActivityFailure, ApplicationFailure, CancellationScope, isCancellation, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities, CandidateTurnOutput } from '../activities/index.js';
import type { CandidateSession } from '../candidates/adapter.js';
import type { CheckResult } from '../evalset/checkResult.js';
import type { RunAnomaly } from '../run/anomaly.js';
import type { RunProgress } from '../run/progress.js';
import type { RunFacts } from '../run/runFacts.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunStatus } from '../run/runStatus.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { searchAttributes } from '../temporal/names.js';
import { runProgressQuery } from './definitions.js';
import { upsertOutcomeAttributes } from './outcomeAttributes.js';
import { candidateProfile, examinerProfile, hostProfile, judgeProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const examiner = proxyActivities<Activities>(examinerProfile);
const judge = proxyActivities<Activities>(judgeProfile);

/** What the run learns as it goes; handed to the record stage once, at the end. */
interface RunLedger {
  facts: RunFacts;
  anomalies: RunAnomaly[];
  /** Activity attempts retried for infrastructure reasons, per stage. */
  retries: Map<string, number>;
}

/**
 * One eval run: prepare → setup → dialogue → verify → judge, then cleanup and record, always.
 * Everything touching the sandbox runs on the host queue claimed first, so one run's files
 * stay on one host. The stages report what they saw (retries, repeated spend, notes); the
 * workflow collects it and hands it to the record stage once, after cleanup, so cleanup's own
 * trouble reaches review.md and the store too.
 */
export async function evalRunWorkflow(spec: RunSpec): Promise<RunOutcome> {
  const progress: RunProgress = { runId: spec.runId, stage: 'prepare', turn: 0, maxTurns: spec.evalCase.maxTurns };
  setHandler(runProgressQuery, () => progress);
  const stage = (name: string) => {
    progress.stage = name;
    upsertSearchAttributes([{ key: searchAttributes.stage, value: name }]);
  };

  const hostQueue = await shared.claimHost();
  const host = proxyActivities<Activities>({ ...hostProfile, taskQueue: hostQueue });
  const candidate = proxyActivities<Activities>({ ...candidateProfile(spec.turnTimeoutS), taskQueue: hostQueue });

  const ledger: RunLedger = {
    facts: { turnsUsed: 0, maxTurns: spec.evalCase.maxTurns, turnLimitHit: false, examinerEnded: false },
    anomalies: [],
    retries: new Map(),
  };
  let status: RunStatus = 'completed';
  let error: string | undefined;
  let postconditions: CheckResult[] = [];
  let verdict: RunVerdict | null = null;

  try {
    stage('prepare');
    const prepared = await host.prepareRun(spec);
    upsertSearchAttributes([{ key: searchAttributes.workflowRev, value: prepared.workflowRev }]);

    stage('setup');
    const setup = await host.setupSandbox(spec);
    if (setup.aborted) {
      status = 'aborted';
      error = setup.reason;
    } else {
      stage('dialogue');
      await dialogue(spec, progress, examiner, candidate, ledger);

      stage('verify');
      postconditions = await host.verifyRun(spec);

      stage('judge');
      try {
        const judged = await judge.judgeRun({ spec, facts: ledger.facts, postconditions });
        countRetries(ledger, 'judge', judged.attempt);
        verdict = judged.verdict;
      } catch (err) {
        if (isCancellation(err)) throw err;
        status = 'judge_failed';
        error = describeFailure(err);
      }
    }
  } catch (err) {
    if (isCancellation(err)) {
      status = 'cancelled';
      error = 'the run was cancelled';
    } else {
      status = 'infra_error';
      error = describeFailure(err);
    }
  }

  // Clean up and record even when cancelled: a cancelled run still leaves its files and row.
  const outcome = await CancellationScope.nonCancellable(async () => {
    stage('cleanup');
    try {
      const cleaned = await host.cleanupRun(spec);
      ledger.anomalies.push(...cleaned.anomalies);
    } catch (err) {
      ledger.anomalies.push({ kind: 'cleanup', detail: `cleanup failed: ${describeFailure(err)}` });
    }
    stage('record');
    const retried = [...ledger.retries.entries()];
    const count = retried.reduce((sum, [, n]) => sum + n, 0);
    if (count > 0) ledger.anomalies.push({ kind: 'infra_retries', count, detail: retried.map(([name, n]) => `${name} ×${n}`).join(', ') });
    return host.recordRun({ spec, status, facts: ledger.facts, postconditions, verdict, anomalies: ledger.anomalies, error: error ?? null });
  });
  stage('done');
  upsertOutcomeAttributes(outcome);
  if (status === 'cancelled') throw ApplicationFailure.nonRetryable('the run was cancelled', 'RunCancelled', outcome);
  return outcome;
}

/**
 * examiner ↔ candidate until the examiner says `<<END>>`, the candidate fails its turn, or
 * max_turns. Updates the ledger as it goes, so a run that fails mid-dialogue still records
 * the turns it used and the retries it took.
 */
async function dialogue(spec: RunSpec, progress: RunProgress, examiner: Activities, candidate: Activities, ledger: RunLedger): Promise<void> {
  const { facts } = ledger;
  let session: CandidateSession | undefined;
  for (let turn = 1; turn <= spec.evalCase.maxTurns; turn++) {
    progress.turn = turn;
    const examined = await examiner.examinerTurn({ spec, turn });
    countRetries(ledger, 'examiner', examined.attempt);
    if (examined.ended) {
      facts.examinerEnded = true;
      return;
    }
    const answered: CandidateTurnOutput = await candidate.candidateTurn({ spec, turn, message: examined.message, session: session ?? null });
    facts.turnsUsed = turn;
    countRetries(ledger, 'candidate', answered.attempt);
    for (const note of answered.notes ?? []) ledger.anomalies.push({ kind: 'candidate_output', turn, detail: note });
    session = answered.session;
    if (answered.failure) {
      facts.candidateFailure = `turn ${turn}: ${answered.failure}`;
      ledger.anomalies.push(
        /timed out/.test(answered.failure)
          ? { kind: 'timeout', detail: `candidate turn ${turn}: ${answered.failure}` }
          : { kind: 'other', detail: `candidate failed turn ${turn}: ${answered.failure}` },
      );
      return;
    }
  }
  facts.turnLimitHit = true;
}

function countRetries(ledger: RunLedger, stage: string, attempt: number): void {
  if (attempt > 1) ledger.retries.set(stage, (ledger.retries.get(stage) ?? 0) + attempt - 1);
}

function describeFailure(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) {
    const cause = err.cause;
    const type = cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ` : '';
    return `${err.activityType} failed: ${type}${cause.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
