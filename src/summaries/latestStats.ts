import { stringify } from 'yaml';
import type { Batch, RunWithVerdict } from '../store/index.js';
import { groupStats, passHatKByK, type GroupStats } from './groupStats.js';
import { caseStability, type VerdictSample, type Stability } from './stability.js';
import { triggerQualityFields, type SkillTrigger } from './triggerQuality.js';
import type { Prices } from '../vocabulary/prices.js';

export interface BatchStats {
  batchId: string;
  overall: GroupStats & { passHatK: Record<number, number | null> };
  cases: Record<string, GroupStats & { passHatK: Record<number, number | null>; stability: Stability }>;
  /** Per skill, how its invocations match the cases' expect_workflow (empty when no case has one). */
  triggerQuality?: Record<string, SkillTrigger>;
}

/** Per case and overall, the numbers of one batch's runs. */
export function batchStats(batch: Pick<Batch, 'batch_id'>, entries: readonly RunWithVerdict[], prices: Prices, judgings: readonly VerdictSample[] = []): BatchStats {
  const stability = caseStability(entries, judgings);
  const byCase = new Map<string, RunWithVerdict[]>();
  for (const entry of entries) byCase.set(entry.run.case_id, [...(byCase.get(entry.run.case_id) ?? []), entry]);
  const cases: BatchStats['cases'] = {};
  for (const caseId of [...byCase.keys()].sort()) {
    const stats = groupStats(byCase.get(caseId)!, prices);
    cases[caseId] = { ...stats, passHatK: passHatKByK([stats]), stability: stability[caseId] ?? 'unknown' };
  }
  const overall = groupStats(entries, prices);
  return { batchId: batch.batch_id, overall: { ...overall, passHatK: passHatKByK(Object.values(cases)) }, cases };
}

/** latest-stats.yaml: the batch's numbers in the field names of evalflow's files (snake_case). */
export function renderLatestStats(stats: BatchStats): string {
  const group = (g: BatchStats['overall'] & { stability?: Stability }) => ({
    runs: g.runs,
    by_status: g.byStatus,
    completed: g.completed,
    passes: g.passes,
    pass_rate: g.passRate ? { rate: round(g.passRate.rate), low: round(g.passRate.low), high: round(g.passRate.high) } : null,
    pass_hat_k: Object.fromEntries(Object.entries(g.passHatK).map(([k, v]) => [k, v === null ? null : round(v)])),
    mean: { compliance: roundOrNull(g.mean.compliance), execution_quality: roundOrNull(g.mean.execution_quality), overall: roundOrNull(g.mean.overall) },
    tokens: g.tokens,
    cost_usd: { examiner: roundOrNull(g.cost.examiner, 6), candidate: roundOrNull(g.cost.candidate, 6), judge: roundOrNull(g.cost.judge, 6), total: roundOrNull(g.cost.total, 6) },
    uncontained_runs: g.uncontained,
    ...(g.stability ? { stability: g.stability } : {}),
  });
  return stringify(
    {
      batch_id: stats.batchId,
      overall: group(stats.overall),
      cases: Object.fromEntries(Object.entries(stats.cases).map(([id, g]) => [id, group(g)])),
      ...(stats.triggerQuality && Object.keys(stats.triggerQuality).length > 0 ? { trigger_quality: triggerQualityFields(stats.triggerQuality) } : {}),
    },
    { lineWidth: 0 },
  );
}

function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function roundOrNull(value: number | null, digits = 4): number | null {
  return value === null ? null : round(value, digits);
}
