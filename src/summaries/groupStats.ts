import { isUnfinished } from '../vocabulary/runStatus.js';
import { passHatK, wilsonInterval, type RateInterval } from '../stats/index.js';
import type { RunWithVerdict } from '../store/index.js';
import { runCost, type RoleCost } from './prices.js';
import { countUncontained } from './runIsolation.js';
import type { Usage } from '../vocabulary/usage.js';
import type { Prices } from '../vocabulary/prices.js';

/** The numbers of a group of runs (a case, a batch, a workflow_rev). */
export interface GroupStats {
  runs: number;
  /** Runs per status, every status included. */
  byStatus: Record<string, number>;
  /** Judged runs: the only ones a pass rate counts. */
  completed: number;
  passes: number;
  passRate: RateInterval | null;
  mean: { compliance: number | null; execution_quality: number | null; overall: number | null };
  tokens: { examiner: Usage | null; candidate: Usage | null; judge: Usage | null };
  cost: RoleCost;
  /** Runs whose candidate ran uncontained (isolation: none), of any status. */
  uncontained: number;
}

/** The numbers of `entries`; a run still pending or running counts in `runs` and `byStatus` only. */
export function groupStats(entries: readonly RunWithVerdict[], prices: Prices): GroupStats {
  const byStatus: Record<string, number> = {};
  for (const { run } of entries) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
  const judged = entries.filter(({ run, verdict }) => run.status === 'completed' && verdict);
  const passes = judged.filter(({ verdict }) => verdict!.result === 'pass').length;
  const mean = (pick: (e: RunWithVerdict) => number | null) => {
    const values = judged.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  const costs = entries.map(({ run }) => (isUnfinished(run.status) ? runCost(null, run.models, prices) : runCost(run.tokens, run.models, prices)));
  return {
    runs: entries.length,
    byStatus,
    completed: judged.length,
    passes,
    passRate: wilsonInterval(passes, judged.length),
    mean: { compliance: mean((e) => e.verdict!.compliance), execution_quality: mean((e) => e.verdict!.execution_quality), overall: mean((e) => e.verdict!.overall) },
    // Over every run: one not recorded yet makes the group's tokens unknown, not smaller.
    tokens: {
      examiner: sumUsage(entries.map(({ run }) => run.tokens?.examiner)),
      candidate: sumUsage(entries.map(({ run }) => run.tokens?.candidate)),
      judge: sumUsage(entries.map(({ run }) => run.tokens?.judge)),
    },
    cost: {
      examiner: sumKnown(costs.map((c) => c.examiner)),
      candidate: sumKnown(costs.map((c) => c.candidate)),
      judge: sumKnown(costs.map((c) => c.judge)),
      total: sumKnown(costs.map((c) => c.total)),
    },
    uncontained: countUncontained(entries),
  };
}

/** pass^k per k = 1..most runs of a case, averaged over the cases with at least k completed runs. */
export function passHatKByK(cases: readonly GroupStats[]): Record<number, number | null> {
  const most = Math.max(0, ...cases.map((c) => c.completed));
  const out: Record<number, number | null> = {};
  for (let k = 1; k <= most; k++) {
    const values = cases.map((c) => passHatK(c.completed, c.passes, k)).filter((v): v is number => v !== null);
    out[k] = values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  }
  return out;
}

/** A sum of usages; null as soon as one of them is unknown (a run not recorded yet counts as unknown). */
function sumUsage(usages: readonly (Usage | null | undefined)[]): Usage | null {
  const total: Usage = { input_tokens: 0, output_tokens: 0 };
  for (const usage of usages) {
    if (!usage) return null;
    total.input_tokens += usage.input_tokens;
    total.output_tokens += usage.output_tokens;
  }
  return total;
}

function sumKnown(values: readonly (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0);
}
