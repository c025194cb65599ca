import { describeAnomaly, type RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import type { Score } from '../vocabulary/score.js';

/** Below this a score means "below acceptable": 3 is the "acceptable" anchor of every scale. */
export const MARGINAL_SCORE = 3;

/**
 * A marginal pass is a pass that the judge's own scores call below acceptable: any of
 * compliance, execution_quality or overall under 3. The judge has no "barely met" field per
 * hard item, so the scales (whose anchor 3 is "acceptable") carry that signal; such passes are
 * the first to flip when the workflow or the model changes.
 */
export function isMarginalPass(score: Score): boolean {
  if (score.result !== 'pass') return false;
  return Math.min(score.compliance, score.execution_quality, score.overall) < MARGINAL_SCORE;
}

/**
 * The run anomalies section of review.md, one markdown bullet each (nested bullets for the
 * corrections made to the judge's answer). Empty when the run was clean.
 */
export function describeAnomalies(input: {
  score?: Score;
  facts?: RunFacts;
  anomalies?: readonly RunAnomaly[];
}): string[] {
  const { score, facts } = input;
  const lines: string[] = [];
  if (score?.forced_fail_reason !== undefined) {
    lines.push(`- Forced fail: ${score.forced_fail_reason}`);
  }
  if (facts?.turnLimitHit) {
    lines.push(`- Turn limit hit: ${facts.turnsUsed} of ${facts.maxTurns} turns used without the examiner ending the dialogue`);
  }
  for (const anomaly of input.anomalies ?? []) lines.push(`- ${describeAnomaly(anomaly)}`);
  if (score && isMarginalPass(score)) {
    lines.push(
      `- Marginal pass: compliance ${score.compliance}, execution quality ${score.execution_quality}, ` +
        `overall ${score.overall} (a pass with a score below ${MARGINAL_SCORE})`,
    );
  }
  const asked = (score?.judge_attempts ?? []).filter((attempt) => attempt.problem !== null);
  if (asked.length > 0) {
    const several = new Set(score?.judge_attempts.map((attempt) => attempt.sample)).size > 1;
    lines.push(
      `- Judge answers that could not be used as written (${asked.length}):`,
      ...asked.map((attempt) => `  - request ${attempt.attempt}${several ? ` of sample ${attempt.sample}` : ''}: ${attempt.problem ?? ''}`),
    );
  }
  if (score?.judge_samples) {
    const said = score.judge_samples.map((s) => `sample ${s.sample} ${s.error !== undefined ? 'no verdict' : `${s.result ?? 'no result'}${s.overall !== null ? ` (overall ${s.overall})` : ''}`}`);
    lines.push(`- Judge samples: ${said.join(', ')}`);
  }
  if (score?.salvaged) {
    lines.push('- Salvaged judge output: the answer was not valid YAML or failed the schema, also when asked again; the verdict was recovered field by field');
  }
  if (score && score.notes.length > 0) {
    lines.push(`- Corrections to the judge answer (${score.notes.length}):`, ...score.notes.map((note) => `  - ${note}`));
  }
  return lines;
}
