import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReviewError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { renderReview } from './reviewMarkdown.js';
import type { Run, RunReview, Store } from '../store/index.js';
import type { ReviewDecision } from '../vocabulary/reviewDecision.js';
import { secondDecisionRefused } from './reviewText.js';
import { JudgeInputRecordSchema } from './runFiles.js';
import type { RunOutcome } from './runOutcome.js';
import { RunVerdictSchema, type RunVerdict } from './runVerdict.js';
import type { Score } from '../vocabulary/score.js';

/**
 * Records a person's decision on a run whose verdict needs one: the decision goes to
 * `run_reviews` beside the judge's verdict (which stays as it is), and the run becomes
 * `completed` with the person's result. A decision sent again (a retried activity, the same
 * command repeated) is accepted as the one on record; any other second decision, or a run
 * that needs none, is refused with a ReviewError saying why.
 */
export async function recordReviewDecision(store: Store, runId: string, decision: ReviewDecision): Promise<RunOutcome> {
  const run = await store.getRun(runId);
  if (!run) throw new ReviewError(`no run ${runId} in the store`);
  const existing = await store.getReview(runId);
  if (existing && !isSame(existing, decision)) throw new ReviewError(secondDecisionRefused(runId, decisionOf(existing)));
  if (!existing && run.status !== 'needs_review') throw new ReviewError(notNeeded(run));
  const verdict = await latestVerdict(store, runId);
  const saved =
    existing ??
    (await store.saveReview(runId, {
      result: decision.result,
      author: decision.author,
      note: decision.note,
      judge_result: verdict?.score.result ?? null,
      reasons: verdict?.score.review_reasons ?? [],
      decided_at: decision.decidedAt,
    }));
  // Two people deciding at once: the store kept one, and the other hears so.
  if (!isSame(saved, decision)) throw new ReviewError(secondDecisionRefused(runId, decisionOf(saved)));
  const updated = await store.updateRun(runId, { status: 'completed', result: saved.result, overall: verdict?.score.overall ?? run.overall, error: null });
  return outcomeOf(updated);
}

/** The decision on record for a run, as review.md and the workflow speak of it. */
export function decisionOf(review: RunReview): ReviewDecision {
  return { result: review.result, author: review.author, note: review.note, decidedAt: review.decided_at };
}

/** The verdict of the run's latest judging, as its judge step stored it (score.yaml's source). */
export async function latestVerdict(store: Store, runId: string): Promise<RunVerdict | null> {
  const finished = (await store.getSteps(runId, { role: 'judge' })).filter((step) => step.state === 'finished' && step.output);
  const latest = finished.sort((a, b) => a.turn - b.turn || a.attempt - b.attempt).at(-1);
  return latest ? parseOrThrow(RunVerdictSchema, latest.output, `store: judge step of ${runId}`) : null;
}

/**
 * review.md rebuilt from the store after a decision recorded outside the run's workflow.
 * Returns false when the run directory is not on this machine (its host rewrites nothing
 * then; the store has the decision and `evalflow show` prints it).
 */
export async function rewriteReviewFile(store: Store, runId: string): Promise<boolean> {
  const run = await store.getRun(runId);
  if (!run || !existsSync(run.run_dir)) return false;
  const verdict = await latestVerdict(store, runId);
  const judged = run.judge_input ? parseOrThrow(JudgeInputRecordSchema, run.judge_input, `store: runs.judge_input of ${runId}`) : null;
  if (!verdict || !judged) return false;
  const review = await store.getReview(runId);
  const score: Score = verdict.score;
  const workflowUsage = (await store.getWorkflowUsage([runId])).map(({ run_id: _runId, ...row }) => row);
  const placement = await store.getWorkflowPlacement(runId);
  await writeFile(join(run.run_dir, 'review.md'), renderReview({ score, facts: judged.facts, anomalies: run.anomalies, decision: review ? decisionOf(review) : null, workflowUsage, placement }));
  return true;
}

function isSame(review: RunReview, decision: ReviewDecision): boolean {
  return review.result === decision.result && review.author === decision.author && review.note === decision.note && Date.parse(review.decided_at) === Date.parse(decision.decidedAt);
}

function notNeeded(run: Run): string {
  if (run.status === 'completed') return `run ${run.run_id} is completed (${run.result ?? 'no result'}): its verdict needs no person's review`;
  if (run.status === 'pending' || run.status === 'running') return `run ${run.run_id} is still ${run.status}; a decision is taken once its verdict needs one`;
  return `run ${run.run_id} ended ${run.status}: only a needs_review run takes a person's decision`;
}

/** The outcome of a run that a decision just settled. */
function outcomeOf(run: Run): RunOutcome {
  return {
    runId: run.run_id,
    caseId: run.case_id,
    status: 'completed',
    result: run.result,
    overall: run.overall,
    runDir: run.run_dir,
    anomalies: run.anomalies,
    ...(run.error ? { error: run.error } : {}),
  };
}
