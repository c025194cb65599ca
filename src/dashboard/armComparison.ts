import { DEFAULT_SEED, wilsonInterval, type RateInterval } from '../stats/index.js';
import type { Batch, BatchDecision, RunWithVerdict } from '../store/index.js';
import { compareSides } from '../summaries/comparison.js';
import { sideDecisions, withDecisions } from '../summaries/sequentialComparison.js';
import { baselineFirst } from '../vocabulary/armOrder.js';
import { markKind } from './markKind.js';
import type { AbTest } from './schema.js';
import type { RunLinks } from './runLinks.js';

/**
 * The A/B view of one batch: each arm against the baseline with `compareSides` (the labels and
 * intervals `evalflow compare` gives), one direction per pair. The baseline is the arm without
 * any workflow when there is one (so a positive difference says the workflow helped), else the
 * batch's first arm. Null when the batch's runs have fewer than two arms.
 */
export function abTestOf(batch: Batch, entries: readonly RunWithVerdict[], links: RunLinks, decisions: readonly BatchDecision[] = []): AbTest | null {
  const armsOfRuns = [...new Set(entries.map((e) => e.run.arm).filter((a): a is string => a !== null))];
  if (armsOfRuns.length < 2) return null;
  const arms = armOrder(batch, armsOfRuns);
  const byArm = new Map(arms.map((a) => [a.name, entries.filter((e) => e.run.arm === a.name)]));
  const base = arms[0]!;
  const pairs = arms.slice(1).map((arm) => {
    const compared = compareSides({ label: base.name, entries: byArm.get(base.name)! }, { label: arm.name, entries: byArm.get(arm.name)! }, { seed: DEFAULT_SEED });
    // An until-decided batch's labels are the sequential test's, as compare gives them.
    const decided = sideDecisions(batch.batch_id, decisions, base.name, arm.name);
    const comparison = decided ? withDecisions(compared, decided) : compared;
    return {
      a: base.name,
      b: arm.name,
      labels: comparison.labels,
      difference: comparison.difference && { mean: comparison.difference.mean, low: comparison.difference.low, high: comparison.difference.high, n: comparison.difference.n },
      cases: comparison.cases.map((c) => ({ caseId: c.caseId, label: c.label, difference: c.difference, interval: c.differenceInterval, p: c.p, detectable: c.detectable })),
    };
  });
  // Rows in the first pair's reading order: regressions first.
  const caseOrder = pairs[0]!.cases.map((c) => c.caseId);
  const matrix = caseOrder.map((caseId) => ({
    caseId,
    arms: arms.map(({ name }) => {
      const runs = byArm.get(name)!.filter((e) => e.run.case_id === caseId).sort((x, y) => (x.run.attempt_index ?? 0) - (y.run.attempt_index ?? 0) || (x.run.run_id < y.run.run_id ? -1 : 1));
      const judged = runs.filter(isJudged);
      const passes = judged.filter((e) => e.verdict!.result === 'pass').length;
      return { judged: judged.length, passes, rate: rate(wilsonInterval(passes, judged.length)), runs: runs.map(({ run, verdict }) => ({ runId: run.run_id, kind: markKind(run.status, verdict?.result ?? null), href: links.run(run) })) };
    }),
  }));
  return {
    batchId: batch.batch_id,
    compareHref: links.compare(batch.batch_id),
    arms: arms.map((arm) => {
      const runs = byArm.get(arm.name)!;
      const judged = runs.filter(isJudged);
      const passes = judged.filter((e) => e.verdict!.result === 'pass').length;
      return { ...arm, runs: runs.length, judged: judged.length, passes, rate: rate(wilsonInterval(passes, judged.length)) };
    }),
    pairs,
    matrix,
  };
}

function isJudged(entry: RunWithVerdict): boolean {
  return entry.run.status === 'completed' && entry.verdict !== null;
}

function rate(interval: RateInterval | null): { rate: number; low: number; high: number } | null {
  return interval && { rate: interval.rate, low: interval.low, high: interval.high };
}

/** The batch's arms as its row records them (name and change), the no-workflow arm first; arms only its runs name follow. */
function armOrder(batch: Batch, names: readonly string[]): { name: string; change: string }[] {
  const recorded = Array.isArray(batch.spec.arms) ? (batch.spec.arms as unknown[]).filter((a): a is { name: string; change: string } => typeof a === 'object' && a !== null && typeof (a as { name?: unknown }).name === 'string' && typeof (a as { change?: unknown }).change === 'string') : [];
  const arms = recorded.filter((a) => names.includes(a.name)).map((a) => ({ name: a.name, change: a.change }));
  for (const name of names) if (!arms.some((a) => a.name === name)) arms.push({ name, change: '' });
  return baselineFirst(arms);
}
