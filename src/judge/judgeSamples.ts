import { JudgeError } from '../errors.js';
import type { LlmClient } from '../llm/port.js';
import type { JudgeInput } from './judgeInput.js';
import { judgeRun, type JudgeRunResult } from './judgeRun.js';
import { addUsage, type Usage } from '../vocabulary/usage.js';
import type { JudgeSample } from '../vocabulary/score.js';

/** Samples beyond the first are drawn at this temperature: at 0 they would mostly copy one answer. */
export const SAMPLE_TEMPERATURE = 0.7;

/**
 * Judge one run with `samples` independent judge samples (each with its own re-asks), drawn
 * at once. One sample is the plain `judgeRun`. With several, the verdict of record is the
 * first sample whose verdict needs no review (else the first that gave one), and the verdict
 * needs a person's review when no sample was whole, when the samples' results disagree, or
 * when a sample gave no verdict at all. A forced fail needs no one, whatever the samples said.
 * JudgeError only when no sample gave a verdict; any other error (LlmError) passes through.
 */
export async function judgeSamples({
  llm,
  input,
  samples,
  signal,
}: {
  llm: LlmClient;
  input: JudgeInput;
  samples: number;
  signal?: AbortSignal;
}): Promise<JudgeRunResult> {
  if (samples <= 1) return judgeRun({ llm, input, ...(signal ? { signal } : {}) });
  const settled = await Promise.allSettled(
    Array.from({ length: samples }, (_, i) => judgeRun({ llm, input, sample: i + 1, temperature: SAMPLE_TEMPERATURE, ...(signal ? { signal } : {}) })),
  );
  const other = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !(s.reason instanceof JudgeError));
  if (other) throw other.reason;

  const judged = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [{ sample: i + 1, run: s.value }] : []));
  const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [{ sample: i + 1, error: (s.reason as JudgeError).message }] : []));
  const chosen = judged.find((j) => j.run.score.review_reasons.length === 0) ?? judged[0];
  if (!chosen) throw new JudgeError(`none of the ${samples} judge samples gave a readable verdict; sample 1: ${failed[0]?.error ?? 'unknown'}`);

  const summaries: JudgeSample[] = [
    ...judged.map(({ sample, run }) => ({ sample, result: run.score.result, overall: run.score.overall, review_reasons: run.score.review_reasons })),
    ...failed.map(({ sample, error }) => ({ sample, result: null, overall: null, review_reasons: [], error })),
  ].sort((a, b) => a.sample - b.sample);
  const attempts = judged.flatMap(({ run }) => run.score.judge_attempts).sort((a, b) => a.sample - b.sample || a.attempt - b.attempt);
  const usage = judged.reduce<Usage | undefined>((sum, { run }) => addUsage(sum, run.usage), undefined);
  const reasons = chosen.run.score.forced_fail_reason === undefined ? panelReasons(chosen, summaries) : [];
  return {
    score: { ...chosen.run.score, review_reasons: reasons, judge_attempts: attempts, judge_samples: summaries, ...(usage ? { judge_usage: usage } : {}) },
    raw: chosen.run.raw,
    answers: judged.flatMap(({ run }) => run.answers),
    usage,
    model: chosen.run.model,
  };
}

function panelReasons(chosen: { sample: number; run: JudgeRunResult }, summaries: readonly JudgeSample[]): string[] {
  const reasons = chosen.run.score.review_reasons.map((reason) => `judge sample ${chosen.sample}: ${reason}`);
  const results = summaries.filter((s) => s.error === undefined);
  if (new Set(results.map((s) => s.result)).size > 1) {
    reasons.push(`the judge samples disagree: ${results.map((s) => `sample ${s.sample} ${s.result ?? 'no result'}`).join(', ')}`);
  }
  for (const s of summaries) if (s.error !== undefined) reasons.push(`judge sample ${s.sample} gave no verdict: ${s.error}`);
  return reasons;
}
