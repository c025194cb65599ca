import { parseOrThrow } from '../format.js';
import { RunVerdictSchema, type RunVerdict } from '../run/runVerdict.js';
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
    for (const step of byTurn.values()) out.push(...extraSamples(runId, parseOrThrow(RunVerdictSchema, step.output, `store: judge step ${step.turn} of ${runId}`)));
  }
  return out;
}

/** A round's samples that gave a result, less the one its verdict of record already counts. */
export function extraSamples(runId: string, verdict: RunVerdict): Judging[] {
  const results = (verdict.score.judge_samples ?? []).filter((s) => s.error === undefined && s.result !== null).map((s) => s.result!);
  const recorded = results.indexOf(verdict.score.result!);
  return results.filter((_, i) => i !== recorded).map((result) => ({ run_id: runId, result }));
}
