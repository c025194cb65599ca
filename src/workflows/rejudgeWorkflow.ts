import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { RunOutcome } from '../run/runOutcome.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { causeText } from './failureText.js';
import { upsertOutcomeAttributes } from './outcomeAttributes.js';
import { recoveryOf } from '../run/recovery.js';
import { hostProfile, modelProfile, sharedProfile } from './profiles.js';

const shared = proxyActivities<Activities>(sharedProfile);
const judge = proxyActivities<Activities>(modelProfile);

export interface RejudgeRequest {
  runId: string;
  /** Judge with another model than the run's own (same endpoint otherwise). */
  judgeModel?: string;
  /**
   * An extra judging (`rejudge --repeat`): kept in the score history as a sample, the run's
   * verdict and files left as they are.
   */
  sample?: boolean;
}

/**
 * Judges a finished run again from its stored transcript, facts and postcondition results:
 * the candidate is not run again. The new verdict replaces the run's score (the old one stays
 * in score_history) and score.yaml and review.md are rewritten on the run's host.
 */
export async function rejudgeWorkflow(request: RejudgeRequest): Promise<RunOutcome> {
  const stored = await shared.loadRejudgeInput({ runId: request.runId });
  const spec: RunSpec = request.judgeModel ? { ...stored.spec, judge: { ...stored.spec.judge, model: request.judgeModel } } : stored.spec;
  const host = proxyActivities<Activities>({ ...hostProfile(recoveryOf(spec)), taskQueue: stored.hostQueue });
  const { facts } = stored;
  let verdict: RunVerdict | null = null;
  let error: string | null = null;
  try {
    verdict = (await judge.judgeRun({ spec, facts, postconditions: stored.postconditions, round: stored.round })).verdict;
  } catch (err) {
    error = `judgeRun failed: ${causeText(err)}`;
  }
  if (request.sample) {
    if (!verdict) throw ApplicationFailure.nonRetryable(error ?? 'the judge gave no verdict', 'JudgeSampleFailed');
    return shared.recordJudgeSample({ runId: spec.runId, verdict });
  }
  const outcome = await host.recordRun({
    spec,
    status: verdict ? 'completed' : 'judge_failed',
    facts,
    postconditions: stored.postconditions,
    verdict,
    anomalies: [{ kind: 'other', detail: `rejudged from the stored transcript with ${spec.judge.model}` }],
    error,
  });
  upsertOutcomeAttributes(outcome);
  return outcome;
}
