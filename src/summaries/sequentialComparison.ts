import { LABEL_ORDER, type ComparisonLabel } from '../stats/index.js';
import type { BatchDecision, Store } from '../store/index.js';
import { parseArmRef } from '../vocabulary/armRef.js';
import { ConfigError } from '../errors.js';
import type { CaseRow, Comparison } from './comparison.js';

/** A batch's decisions as one comparison of its two arms reads them: A and B in the order the user named them. */
export interface SideDecisions {
  batchId: string;
  alpha: number;
  maxRunsPerCase: number;
  /** The decisions with A and B as named; a reversed comparison has its labels and differences turned around. */
  decisions: BatchDecision[];
}

/**
 * The stored decisions for comparing side `a` with side `b` when both name the two arms of one
 * batch run until decided; null for any other comparison. Such a batch that has not stored
 * them (it has not ended) is refused: its runs were added while looking, so a test of the runs
 * so far would not hold its error rate, and only the sequential test may label its cases.
 */
export async function decisionsForSides(store: Store, a: string, b: string, inBatch?: string): Promise<SideDecisions | null> {
  const left = parseArmRef(a, inBatch);
  const right = parseArmRef(b, inBatch);
  if (left.batch !== right.batch || !left.arm || !right.arm || left.arm === right.arm) return null;
  const batch = await store.getBatch(left.batch);
  if (!batch) return null;
  const stored = await store.getBatchDecisions(left.batch);
  if (stored.length === 0) {
    if (!batch.spec.until_decided) return null;
    if (batch.status === 'running' || batch.status === 'pending') {
      throw new ConfigError(`compare: batch ${left.batch} runs until decided and has stored no decisions yet (status ${batch.status}); its labels come from the sequential test as it ends (\`evalflow attach ${left.batch}\`)`);
    }
    // It ended before batches kept their decisions: Fisher's test on its runs would not hold its error rate either.
    throw new ConfigError(`compare: batch ${left.batch} ran until decided and stored no sequential decisions (status ${batch.status}: it ended before evalflow kept them); its arms get no labels from a test of their accumulated runs (see summaries/compare-${left.batch}.md if it wrote one)`);
  }
  return sideDecisions(left.batch, stored, left.arm, right.arm);
}

/** The decisions read as `armA` → `armB`; null when those are not the batch's two arms. */
export function sideDecisions(batchId: string, stored: readonly BatchDecision[], armA: string, armB: string): SideDecisions | null {
  const first = stored[0];
  if (!first) return null;
  const forward = first.arm_a === armA && first.arm_b === armB;
  const reversed = first.arm_a === armB && first.arm_b === armA;
  if (!forward && !reversed) return null;
  return { batchId, alpha: first.alpha, maxRunsPerCase: first.max_runs_per_case, decisions: forward ? [...stored] : stored.map(turnAround) };
}

/**
 * The comparison with each case labelled by the sequential test instead of Fisher's test on the
 * accumulated runs: its label, B − A with its interval and why it stopped. The pass rates stay
 * as the runs show them; McNemar over the accumulated pairs goes, for the same reason as Fisher.
 */
export function withDecisions(comparison: Comparison, decided: SideDecisions): Comparison {
  const byCase = new Map(decided.decisions.map((d) => [d.case_id, d]));
  const cases = comparison.cases
    .map((row): CaseRow => {
      const decision = byCase.get(row.caseId);
      if (!decision) return { ...row, label: 'not_comparable', p: null, detectable: null, reason: `batch ${decided.batchId} stored no sequential decision for this case` };
      const interval = decision.low !== null && decision.high !== null ? { low: decision.low, high: decision.high } : null;
      const { reason: _fisherReason, ...rest } = row;
      return {
        ...rest,
        label: decision.label,
        difference: decision.difference,
        differenceInterval: interval,
        p: null,
        detectable: null,
        decision: { runsASide: decision.runs_a_side, pairs: decision.pairs, onlyA: decision.only_a, onlyB: decision.only_b, evidence: decision.evidence, stoppedBy: decision.stopped_by, why: decision.why },
      };
    })
    .sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || (x.caseId < y.caseId ? -1 : 1));
  const labels = Object.fromEntries(LABEL_ORDER.map((l) => [l, cases.filter((c) => c.label === l).length])) as Record<ComparisonLabel, number>;
  return { ...comparison, cases, labels, mcnemar: null, sequential: { alpha: decided.alpha, maxRunsPerCase: decided.maxRunsPerCase } };
}

const TURNED: Partial<Record<ComparisonLabel, ComparisonLabel>> = { regression: 'improvement', improvement: 'regression' };

function turnAround(d: BatchDecision): BatchDecision {
  return {
    ...d,
    arm_a: d.arm_b,
    arm_b: d.arm_a,
    label: TURNED[d.label] ?? d.label,
    only_a: d.only_b,
    only_b: d.only_a,
    difference: d.difference === null ? null : -d.difference,
    low: d.high === null ? null : -d.high,
    high: d.low === null ? null : -d.low,
  };
}
