import type { RateInterval } from '../stats/index.js';
import type { Dashboard, DashboardFilter } from './schema.js';

/**
 * What the dashboard shows for a filter, summed from the embedded cells. These functions run
 * in Node (tests, `evalflow view`) and, as their own source text, inside dashboard.html; so
 * each uses only its arguments, the functions of this file and the statistics handed in.
 */

export interface DashboardStats {
  wilsonInterval: (passes: number, n: number) => RateInterval | null;
  passHatK: (n: number, c: number, k: number) => number | null;
}

/** The numbers of a set of cells. */
export interface Totals {
  runs: number;
  judged: number;
  passes: number;
  byStatus: Record<string, number>;
  meanOverall: number | null;
  meanCompliance: number | null;
  meanExecutionQuality: number | null;
  /** Null when a run's tokens (or cost) are unknown: a partial sum would read as the whole. */
  tokens: number | null;
  cost: number | null;
  /** Runs whose candidate ran uncontained: a result with any is not a contained one. */
  uncontained: number;
}

export interface BatchKpis extends Totals {
  batch: number;
  passRate: RateInterval | null;
  /** pass^k averaged over the batch's cases, k = the fewest judged runs of any case that has one (so every judged case counts). */
  passHatK: { k: number; value: number | null } | null;
  infraErrorRate: number | null;
  judgeFailedRate: number | null;
}

export interface Kpis {
  last: BatchKpis | null;
  previous: BatchKpis | null;
}

export interface TrendPoint {
  batch: number;
  passRate: RateInterval | null;
  meanOverall: number | null;
  revs: number[];
  /** The batch ran a workflow_rev no earlier batch (in the filter) ran. */
  newRev: boolean;
}

export interface GroupRow extends Totals {
  key: number;
  passRate: RateInterval | null;
}

export type GroupDimension = 'rev' | 'candidate' | 'model' | 'arm' | 'case';

/** The cells the filter keeps. */
export function selectCells(model: Dashboard, filter: DashboardFilter): number[] {
  const index = (list: readonly string[], value: string | undefined) => (value === undefined ? -1 : list.indexOf(value));
  const want = {
    case: index(model.cases.map((c) => c.id), filter.case),
    candidate: index(model.candidates, filter.candidate),
    model: index(model.models, filter.model),
    rev: index(model.revs, filter.rev),
    arm: index(model.arms, filter.arm),
  };
  const caseOk = model.cases.map((c) => (filter.category === undefined || c.category === filter.category) && (filter.tag === undefined || c.tags.includes(filter.tag)));
  const batchOk = model.batches.map((b) => (filter.from === undefined || b.createdAt.slice(0, 10) >= filter.from) && (filter.to === undefined || b.createdAt.slice(0, 10) <= filter.to));
  const c = model.cells;
  const out: number[] = [];
  for (let i = 0; i < c.batch.length; i++) {
    if (filter.case !== undefined && c.case[i] !== want.case) continue;
    if (filter.candidate !== undefined && c.candidate[i] !== want.candidate) continue;
    if (filter.model !== undefined && c.model[i] !== want.model) continue;
    if (filter.rev !== undefined && c.rev[i] !== want.rev) continue;
    if (filter.arm !== undefined && c.arm[i] !== want.arm) continue;
    if (!caseOk[c.case[i]!] || !batchOk[c.batch[i]!]) continue;
    out.push(i);
  }
  return out;
}

/** The sums of the given cells. */
export function totalsOf(model: Dashboard, cells: readonly number[]): Totals {
  const c = model.cells;
  const byStatus: Record<string, number> = {};
  let runs = 0, judged = 0, passes = 0, overallSum = 0, overallN = 0, complianceSum = 0, executionQualitySum = 0;
  let tokens = 0, tokensUnknown = 0, cost = 0, costUnknown = 0, uncontained = 0;
  for (const i of cells) {
    model.statuses.forEach((status, s) => {
      const n = c.byStatus[s]![i]!;
      if (n > 0) byStatus[status] = (byStatus[status] ?? 0) + n;
      runs += n;
    });
    judged += c.judged[i]!;
    passes += c.passes[i]!;
    overallSum += c.overallSum[i]!;
    overallN += c.overallN[i]!;
    complianceSum += c.complianceSum[i]!;
    executionQualitySum += c.executionQualitySum[i]!;
    tokens += c.tokens[i]!;
    tokensUnknown += c.tokensUnknown[i]!;
    cost += c.cost[i]!;
    costUnknown += c.costUnknown[i]!;
    uncontained += c.uncontained[i]!;
  }
  return {
    runs,
    judged,
    passes,
    byStatus,
    meanOverall: overallN === 0 ? null : overallSum / overallN,
    meanCompliance: judged === 0 ? null : complianceSum / judged,
    meanExecutionQuality: judged === 0 ? null : executionQualitySum / judged,
    tokens: runs === 0 || tokensUnknown > 0 ? null : tokens,
    cost: runs === 0 || costUnknown > 0 ? null : cost,
    uncontained,
  };
}

/** The KPI cards: the last eval batch the filter keeps, and the latest before it over the same cases for the change. */
export function kpisOf(model: Dashboard, filter: DashboardFilter, stats: DashboardStats): Kpis {
  const cells = selectCells(model, filter);
  const byBatch = new Map<number, number[]>();
  for (const i of cells) {
    const b = model.cells.batch[i]!;
    if (model.batches[b]!.kind !== 'eval' || model.batches[b]!.id === '(none)') continue;
    push(byBatch, b, i);
  }
  const order = [...byBatch.keys()].sort((a, b) => a - b);
  const kpis = (b: number | undefined): BatchKpis | null => {
    if (b === undefined) return null;
    const batchCells = byBatch.get(b)!;
    const totals = totalsOf(model, batchCells);
    const perCase = new Map<number, { judged: number; passes: number }>();
    for (const i of batchCells) {
      const key = model.cells.case[i]!;
      const sums = perCase.get(key) ?? { judged: 0, passes: 0 };
      sums.judged += model.cells.judged[i]!;
      sums.passes += model.cells.passes[i]!;
      perCase.set(key, sums);
    }
    const judgedCounts = [...perCase.values()].map((s) => s.judged).filter((n) => n > 0);
    const k = judgedCounts.length === 0 ? 0 : Math.min(...judgedCounts);
    const values = [...perCase.values()].map((s) => stats.passHatK(s.judged, s.passes, k)).filter((v): v is number => v !== null);
    const count = (status: string) => totals.byStatus[status] ?? 0;
    return {
      ...totals,
      batch: b,
      passRate: stats.wilsonInterval(totals.passes, totals.judged),
      passHatK: k === 0 ? null : { k, value: values.length === 0 ? null : values.reduce((x, y) => x + y, 0) / values.length },
      infraErrorRate: totals.runs === 0 ? null : count('infra_error') / totals.runs,
      judgeFailedRate: totals.runs === 0 ? null : count('judge_failed') / totals.runs,
    };
  };
  // The change is only shown against an earlier batch of the same cases: a follow-up over other cases compares nothing.
  const casesOf = (b: number) => [...new Set(byBatch.get(b)!.map((i) => model.cells.case[i]!))].sort((x, y) => x - y).join(',');
  const last = order.at(-1);
  const previous = last === undefined ? undefined : order.slice(0, -1).reverse().find((b) => casesOf(b) === casesOf(last));
  return { last: kpis(last), previous: kpis(previous) };
}

/** Pass rate (with its interval) and mean overall per eval batch, oldest first, marking the batches of a new workflow_rev. */
export function trendOf(model: Dashboard, filter: DashboardFilter, stats: DashboardStats): TrendPoint[] {
  const byBatch = new Map<number, number[]>();
  for (const i of selectCells(model, filter)) {
    const b = model.cells.batch[i]!;
    if (model.batches[b]!.kind === 'eval' && model.batches[b]!.id !== '(none)') push(byBatch, b, i);
  }
  const seen = new Set<number>();
  return [...byBatch.keys()]
    .sort((a, b) => a - b)
    .map((batch) => {
      const cells = byBatch.get(batch)!;
      const totals = totalsOf(model, cells);
      const revs = [...new Set(cells.map((i) => model.cells.rev[i]!))].sort((a, b) => a - b);
      const newRev = revs.some((r) => !seen.has(r)) && seen.size > 0;
      for (const r of revs) seen.add(r);
      return { batch, passRate: stats.wilsonInterval(totals.passes, totals.judged), meanOverall: totals.meanOverall, revs, newRev };
    });
}

/** One row per value of a dimension (rev, candidate, model, arm, case), in dictionary order. */
export function groupRows(model: Dashboard, filter: DashboardFilter, stats: DashboardStats, dimension: GroupDimension): GroupRow[] {
  const groups = new Map<number, number[]>();
  for (const i of selectCells(model, filter)) {
    const key = model.cells[dimension][i]!;
    push(groups, key, i);
  }
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .map((key) => {
      const totals = totalsOf(model, groups.get(key)!);
      return { ...totals, key, passRate: stats.wilsonInterval(totals.passes, totals.judged) };
    });
}

/** The timeline marks the filter keeps. */
export function selectMarks(model: Dashboard, filter: DashboardFilter): number[] {
  const t = model.timeline;
  const pick = (list: readonly string[], value: string | undefined) => (value === undefined ? -1 : list.indexOf(value));
  const want = { case: pick(model.cases.map((c) => c.id), filter.case), candidate: pick(model.candidates, filter.candidate), model: pick(model.models, filter.model), rev: pick(model.revs, filter.rev), arm: pick(model.arms, filter.arm) };
  const out: number[] = [];
  for (let i = 0; i < t.runId.length; i++) {
    const evalCase = model.cases[t.case[i]!]!;
    if (filter.case !== undefined && t.case[i] !== want.case) continue;
    if (filter.candidate !== undefined && t.candidate[i] !== want.candidate) continue;
    if (filter.model !== undefined && t.model[i] !== want.model) continue;
    if (filter.rev !== undefined && t.rev[i] !== want.rev) continue;
    if (filter.arm !== undefined && t.arm[i] !== want.arm) continue;
    if (filter.category !== undefined && evalCase.category !== filter.category) continue;
    if (filter.tag !== undefined && !evalCase.tags.includes(filter.tag)) continue;
    const day = new Date(t.at[i]! * 1000).toISOString().slice(0, 10);
    if ((filter.from !== undefined && day < filter.from) || (filter.to !== undefined && day > filter.to)) continue;
    out.push(i);
  }
  return out;
}

function push(groups: Map<number, number[]>, key: number, value: number): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}

/** The functions above, as the page embeds them. */
export const AGGREGATE_FUNCTIONS = [selectCells, totalsOf, kpisOf, trendOf, groupRows, selectMarks, push];
