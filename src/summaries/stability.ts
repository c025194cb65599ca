import type { RunWithVerdict } from '../store/index.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';

/**
 * Whether a case's verdicts can be trusted to repeat:
 * - `stable_pass` / `stable_fail`: every run, and every judging of each run, agrees;
 * - `flaky_agent`: the runs differ, but each run's judgings agree: the agent is what varies;
 * - `flaky_judge`: some run's judgings disagree: the judge is what varies (`rejudge --repeat`
 *   judges stored transcripts again, so this costs only judge calls);
 * - `flaky`: the runs differ and no run was judged twice, so agent and judge cannot be told apart;
 * - `unknown`: no judged run, or one run judged once: a single verdict shows no repeat.
 */
export type Stability = 'stable_pass' | 'stable_fail' | 'flaky_agent' | 'flaky_judge' | 'flaky' | 'unknown';

/** One judging of a run (a judge sample, a rejudge): the result it gave, for agreement only. */
export interface VerdictSample {
  run_id: string;
  /** null: the judge gave no result (that judging says nothing about agreement). */
  result: VerdictResult | null;
}

/** Each case's stability, from its judged runs and every judging of them. */
export function caseStability(entries: readonly RunWithVerdict[], judgings: readonly VerdictSample[]): Record<string, Stability> {
  const resultsByRun = new Map<string, Set<string>>();
  for (const judging of judgings) if (judging.result) resultsByRun.set(judging.run_id, (resultsByRun.get(judging.run_id) ?? new Set()).add(judging.result));
  const timesByRun = new Map<string, number>();
  for (const judging of judgings) timesByRun.set(judging.run_id, (timesByRun.get(judging.run_id) ?? 0) + 1);
  const byCase = new Map<string, RunWithVerdict[]>();
  for (const entry of entries) if (entry.run.status === 'completed' && entry.verdict) byCase.set(entry.run.case_id, [...(byCase.get(entry.run.case_id) ?? []), entry]);
  const out: Record<string, Stability> = {};
  for (const caseId of [...new Set(entries.map((e) => e.run.case_id))].sort()) {
    const judged = byCase.get(caseId) ?? [];
    if (judged.length === 0 || (judged.length === 1 && (timesByRun.get(judged[0]!.run.run_id) ?? 1) <= 1)) {
      out[caseId] = 'unknown';
      continue;
    }
    if (judged.some((e) => (resultsByRun.get(e.run.run_id)?.size ?? 1) > 1)) {
      out[caseId] = 'flaky_judge';
      continue;
    }
    const results = new Set(judged.map((e) => e.verdict!.result));
    if (results.size === 1) out[caseId] = results.has('pass') ? 'stable_pass' : 'stable_fail';
    else out[caseId] = judged.some((e) => (timesByRun.get(e.run.run_id) ?? 1) > 1) ? 'flaky_agent' : 'flaky';
  }
  return out;
}
