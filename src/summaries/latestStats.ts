import { stringify } from 'yaml';
import * as z from 'zod';
import { bootstrapMean, DEFAULT_SEED, passAtK, passHatK, type MeanInterval } from '../stats/index.js';
import type { Batch, BatchDecision, RunWithVerdict } from '../store/index.js';
import type { Prices } from '../vocabulary/prices.js';
import { baselineFirst } from '../vocabulary/armOrder.js';
import { compareSides, type Comparison } from './comparison.js';
import { groupStats, type GroupStats } from './groupStats.js';
import { sideDecisions, withDecisions } from './sequentialComparison.js';
import { LatestStatsSchema, type GroupStatsFile, type LatestStats, type VersusFirst } from './latestStatsSchema.js';
import { caseStability, type VerdictSample, type Stability } from './stability.js';
import { triggerQualityFields, type SkillTrigger } from './triggerQuality.js';

/** The bootstrap every interval of latest-stats.yaml uses: seeded, so the file rebuilds byte for byte. */
export const SUMMARY_BOOTSTRAP = { seed: DEFAULT_SEED, resamples: 2000, confidence: 0.95 } as const;

type Scores = 'compliance' | 'execution_quality' | 'overall';

/** A group's numbers with what only a summary shows: pass^k and pass@k, and the mean scores' intervals. */
export interface SummaryGroup extends GroupStats {
  passHatK: Record<number, number | null>;
  passAtK: Record<number, number | null>;
  meanInterval: Record<Scores, MeanInterval | null>;
}

export interface ArmStats {
  /** null for a batch without arms: its one group is the whole batch. */
  name: string | null;
  change: string | null;
  overall: SummaryGroup;
  cases: Record<string, SummaryGroup & { stability: Stability }>;
  /** This arm against the first arm (A = the first, B = this one); null for the first arm and a batch without arms. */
  versusFirst: Comparison | null;
}

export interface BatchStats {
  batchId: string;
  /** In the batch's arm order; one entry, named null, for a batch without arms. */
  arms: ArmStats[];
  /** Per skill, how its invocations match the cases' expect_workflow (empty when no case has one). */
  triggerQuality?: Record<string, SkillTrigger>;
}

/** The arms a batch was started with, as its row keeps them. */
const SpecArmsSchema = z.object({ arms: z.array(z.object({ name: z.string(), change: z.string() })) });

/**
 * The arms of a batch in comparison order (`baselineFirst`): as the batch was started with
 * them, else (a row written before arms were kept) by name; none when no run has an arm.
 */
export function batchArms(batch: Pick<Batch, 'spec'>, entries: readonly RunWithVerdict[]): { name: string; change: string | null }[] {
  const ran = new Set(entries.map((e) => e.run.arm).filter((arm): arm is string => arm !== null));
  if (ran.size === 0) return [];
  const given = SpecArmsSchema.safeParse(batch.spec);
  const named = given.success ? given.data.arms.filter((a) => ran.has(a.name)) : [];
  const rest = [...ran].filter((name) => !named.some((a) => a.name === name)).sort();
  return baselineFirst([...named, ...rest.map((name) => ({ name, change: null }))]);
}

/** Per arm (or for the whole batch when it has none), per case and overall, the numbers of one batch's runs. */
export function batchStats(batch: Pick<Batch, 'batch_id' | 'spec'>, entries: readonly RunWithVerdict[], prices: Prices, judgings: readonly VerdictSample[] = [], decisions: readonly BatchDecision[] = []): BatchStats {
  const arms = batchArms(batch, entries);
  if (arms.length === 0) return { batchId: batch.batch_id, arms: [armStats(null, null, entries, prices, judgings, null)] };
  const first = entries.filter((e) => e.run.arm === arms[0]!.name);
  return {
    batchId: batch.batch_id,
    arms: arms.map((arm, i) => {
      const own = entries.filter((e) => e.run.arm === arm.name);
      const compared = i === 0 ? null : compareSides({ label: arms[0]!.name, entries: first }, { label: arm.name, entries: own }, { seed: SUMMARY_BOOTSTRAP.seed, judgings });
      // An until-decided batch's labels are the sequential test's, as compare gives them.
      const decided = compared ? sideDecisions(batch.batch_id, decisions, arms[0]!.name, arm.name) : null;
      const versus = compared && decided ? withDecisions(compared, decided) : compared;
      return armStats(arm.name, arm.change, own, prices, judgings, versus);
    }),
  };
}

function armStats(name: string | null, change: string | null, entries: readonly RunWithVerdict[], prices: Prices, judgings: readonly VerdictSample[], versusFirst: Comparison | null): ArmStats {
  const stability = caseStability(entries, judgings);
  const byCase = new Map<string, RunWithVerdict[]>();
  for (const entry of entries) byCase.set(entry.run.case_id, [...(byCase.get(entry.run.case_id) ?? []), entry]);
  const cases: ArmStats['cases'] = {};
  for (const caseId of [...byCase.keys()].sort()) {
    const runs = byCase.get(caseId)!;
    const stats = groupStats(runs, prices);
    cases[caseId] = { ...stats, ...perCase([stats]), meanInterval: meanIntervals(runs), stability: stability[caseId] ?? 'unknown' };
  }
  const overall = groupStats(entries, prices);
  return { name, change, overall: { ...overall, ...perCase(Object.values(cases)), meanInterval: meanIntervals(entries) }, cases, versusFirst };
}

/** pass^k and pass@k per k = 1..most judged runs of a case, averaged over the cases with at least k. */
function perCase(cases: readonly GroupStats[]): Pick<SummaryGroup, 'passHatK' | 'passAtK'> {
  const most = Math.max(0, ...cases.map((c) => c.completed));
  const average = (estimator: (n: number, c: number, k: number) => number | null, k: number) => {
    const values = cases.map((c) => estimator(c.completed, c.passes, k)).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  const passHat: Record<number, number | null> = {};
  const passAt: Record<number, number | null> = {};
  for (let k = 1; k <= most; k++) {
    passHat[k] = average(passHatK, k);
    passAt[k] = average(passAtK, k);
  }
  return { passHatK: passHat, passAtK: passAt };
}

function meanIntervals(entries: readonly RunWithVerdict[]): Record<Scores, MeanInterval | null> {
  const judged = entries.filter(({ run, verdict }) => run.status === 'completed' && verdict);
  const of = (pick: Scores) => bootstrapMean(judged.map((e) => e.verdict![pick]).filter((v): v is number => v !== null), SUMMARY_BOOTSTRAP);
  return { compliance: of('compliance'), execution_quality: of('execution_quality'), overall: of('overall') };
}

/** latest-stats.yaml: the batch's numbers in the field names of evalflow's files (snake_case), checked against its schema. */
export function renderLatestStats(stats: BatchStats): string {
  const [only] = stats.arms;
  const file: LatestStats = {
    batch_id: stats.batchId,
    bootstrap: { ...SUMMARY_BOOTSTRAP },
    ...(stats.arms.length === 1 && only!.name === null
      ? { overall: group(only!.overall), cases: mapValues(only!.cases, group) }
      : {
          arms: Object.fromEntries(
            stats.arms.map((arm) => [arm.name!, { change: arm.change ?? 'unknown', overall: group(arm.overall), cases: mapValues(arm.cases, group), ...(arm.versusFirst ? { versus_first: versusFile(arm.versusFirst) } : {}) }]),
          ),
        }),
    ...(stats.triggerQuality && Object.keys(stats.triggerQuality).length > 0 ? { trigger_quality: triggerQualityFields(stats.triggerQuality) } : {}),
  };
  return stringify(LatestStatsSchema.parse(file), { lineWidth: 0 });
}

function group(g: SummaryGroup & { stability?: Stability }): GroupStatsFile {
  const interval = (m: MeanInterval | null) => (m === null ? null : { mean: round(m.mean), low: round(m.low), high: round(m.high), n: m.n });
  const ratios = (byK: Record<number, number | null>) => mapValues(byK, (v) => (v === null ? null : round(v)));
  return {
    runs: g.runs,
    by_status: g.byStatus,
    completed: g.completed,
    passes: g.passes,
    pass_rate: g.passRate ? { rate: round(g.passRate.rate), low: round(g.passRate.low), high: round(g.passRate.high) } : null,
    pass_hat_k: ratios(g.passHatK),
    pass_at_k: ratios(g.passAtK),
    mean: { compliance: roundOrNull(g.mean.compliance), execution_quality: roundOrNull(g.mean.execution_quality), overall: roundOrNull(g.mean.overall) },
    mean_interval: { compliance: interval(g.meanInterval.compliance), execution_quality: interval(g.meanInterval.execution_quality), overall: interval(g.meanInterval.overall) },
    tokens: g.tokens,
    cost_usd: { examiner: roundOrNull(g.cost.examiner, 6), candidate: roundOrNull(g.cost.candidate, 6), judge: roundOrNull(g.cost.judge, 6), total: roundOrNull(g.cost.total, 6) },
    uncontained_runs: g.uncontained,
    ...(g.stability ? { stability: g.stability } : {}),
  };
}

function versusFile(c: Comparison): VersusFirst {
  return {
    arm: c.a.label,
    ...(c.sequential ? { method: 'sequential_test' as const } : {}),
    labels: c.labels,
    mean_difference: c.difference ? { mean: round(c.difference.mean), low: round(c.difference.low), high: round(c.difference.high), n: c.difference.n } : null,
    mcnemar: c.mcnemar ? { pairs: c.mcnemar.pairs, only_first: c.mcnemar.onlyA, only_this: c.mcnemar.onlyB, p: round(c.mcnemar.p) } : null,
    cases: Object.fromEntries(
      [...c.cases]
        .sort((x, y) => (x.caseId < y.caseId ? -1 : 1))
        .map((row) => [
          row.caseId,
          {
            label: row.label,
            difference: roundOrNull(row.difference),
            low: roundOrNull(row.differenceInterval?.low ?? null),
            high: roundOrNull(row.differenceInterval?.high ?? null),
            p: roundOrNull(row.p),
            detectable: roundOrNull(row.detectable),
            ...(row.reason ? { reason: row.reason } : {}),
          },
        ]),
    ),
  };
}

function mapValues<V, W>(record: Record<string | number, V>, f: (value: V) => W): Record<string, W> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
}

function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function roundOrNull(value: number | null, digits = 4): number | null {
  return value === null ? null : round(value, digits);
}
