import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { Activities, CandidateTurnOutput, RunFacts } from '../activities/index.js';
import type { CandidateSession } from '../candidates/adapter.js';
import type { CheckResult } from '../evalset/checkResult.js';
import type { RunAnomaly } from '../judge/anomalies.js';
import type { RunOutcome, RunSpec, RunStatus } from '../run/runSpec.js';
import { runProgressQuery, searchAttributes, type RunProgress } from './definitions.js';
import { upsertOutcomeAttributes } from './outcomeAttributes.js';
import { candidateProfile, examinerProfile, hostProfile, judgeProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const examiner = proxyActivities<Activities>(examinerProfile);
const judge = proxyActivities<Activities>(judgeProfile);

/**
 * One eval run: prepare → setup → dialogue → verify → judge → record, with cleanup always.
 * Everything touching the sandbox runs on the host queue claimed first, so one run's files
 * stay on one host.
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

  const anomalies: RunAnomaly[] = [];
  let status: RunStatus = 'completed';
  let error: string | undefined;
  const facts: RunFacts = { turnsUsed: 0, maxTurns: spec.evalCase.maxTurns, turnLimitHit: false, examinerEnded: false, infraRetries: 0 };
  let postconditions: CheckResult[] = [];
  let verdict: Awaited<ReturnType<Activities['judgeRun']>> | undefined;

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
      await dialogue(spec, progress, examiner, candidate, facts);

      stage('verify');
      postconditions = await host.verifyRun(spec);

      stage('judge');
      try {
        verdict = await judge.judgeRun({ spec, facts, postconditions });
        facts.infraRetries += verdict.attempt - 1;
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

  // Record and clean up even when cancelled: a cancelled run still leaves its files and row.
  const outcome = await CancellationScope.nonCancellable(async () => {
    stage('record');
    const recorded = await host.recordRun({ spec, status, facts, postconditions, verdict: verdict ?? null, anomalies, error: error ?? null });
    stage('cleanup');
    try {
      await host.cleanupRun(spec);
    } catch (err) {
      recorded.anomalies.push(`cleanup failed: ${describeFailure(err)}`);
    }
    return recorded;
  });
  stage('done');
  upsertOutcomeAttributes(outcome);
  if (status === 'cancelled') throw ApplicationFailure.nonRetryable('the run was cancelled', 'RunCancelled', outcome);
  return outcome;
}

/**
 * examiner ↔ candidate until the examiner says `<<END>>`, the candidate fails its turn, or
 * max_turns. Updates `facts` as it goes, so a run that fails mid-dialogue still records the
 * turns it used and the retries it took.
 */
async function dialogue(spec: RunSpec, progress: RunProgress, examiner: Activities, candidate: Activities, facts: RunFacts): Promise<void> {
  let session: CandidateSession | undefined;
  for (let turn = 1; turn <= spec.evalCase.maxTurns; turn++) {
    progress.turn = turn;
    const examined = await examiner.examinerTurn({ spec, turn });
    facts.infraRetries += examined.attempt - 1;
    if (examined.ended) {
      facts.examinerEnded = true;
      return;
    }
    const answered: CandidateTurnOutput = await candidate.candidateTurn({ spec, turn, message: examined.message, session: session ?? null });
    facts.turnsUsed = turn;
    facts.infraRetries += answered.attempt - 1;
    session = answered.session;
    if (answered.failure) {
      facts.candidateFailure = `turn ${turn}: ${answered.failure}`;
      return;
    }
  }
  facts.turnLimitHit = true;
}

function describeFailure(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) {
    const cause = err.cause;
    const type = cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ` : '';
    return `${err.activityType} failed: ${type}${cause.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
