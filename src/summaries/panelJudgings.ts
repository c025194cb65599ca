import { parseOrThrow } from '../format.js';
import { ScoreSchema, type Score } from '../vocabulary/score.js';
import type { Store } from '../store/index.js';
import type { Judging } from './calibration.js';

/**
 * The judgings `run --judges N` drew beyond the verdict of record, from each run's judge steps.
 * The store's verdict history keeps one row per judging round (the sample chosen as the
 * verdict); the panel's other samples live only in the round's judge step, so without them a
 * calibration run with several judges would look as if each transcript were judged once.
 */
export async function panelJudgings(store: Store, runIds: readonly string[]): Promise<Judging[]> {
  const out: Judging[] = [];
  for (const runId of runIds) {
    const finished = (await store.getSteps(runId, { role: 'judge' })).filter((step) => step.state === 'finished' && step.output);
    // A round retried after a crash can hold several finished attempts: its latest is the round's verdict.
    const byTurn = new Map<number, (typeof finished)[number]>();
    for (const step of finished.sort((a, b) => a.attempt - b.attempt)) byTurn.set(step.turn, step);
    // The step holds the round's whole verdict (run/runVerdict.ts); only its score is read here.
    for (const step of byTurn.values()) out.push(...extraSamples(runId, parseOrThrow(ScoreSchema, step.output!.score, `store: judge step ${step.turn} of ${runId} (score)`)));
  }
  return out;
}

/** A round's samples that gave a result, less the one its verdict of record already counts. */
export function extraSamples(runId: string, score: Score): Judging[] {
  const results = (score.judge_samples ?? []).filter((s) => s.error === undefined && s.result !== null).map((s) => s.result!);
  const recorded = results.indexOf(score.result!);
  return results.filter((_, i) => i !== recorded).map((result) => ({ run_id: runId, result }));
}
