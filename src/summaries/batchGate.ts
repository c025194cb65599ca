import type { BatchDecision, RunWithVerdict } from '../store/index.js';
import type { Prices } from '../vocabulary/prices.js';
import { armsOf, sameArm, type ArmGroup } from './armGroups.js';
import { compareSides, type Comparison, type ComparisonSide } from './comparison.js';
import { evaluateGate, type GateCondition } from './gate.js';
import { groupStats, type GroupStats } from './groupStats.js';
import { sideDecisions, withDecisions, type SideDecisions } from './sequentialComparison.js';
import type { VerdictSample } from './stability.js';

/** One thing a gate checked, about one arm (null: the whole batch, which has no arms). */
export interface GateCheck {
  arm: string | null;
  /** What was checked: a condition's text, or `no regression against …`. */
  name: string;
  met: boolean;
  /** The value or the cases behind the verdict. */
  detail: string;
  /** A check the batch's infrastructure failed (nothing measured, too many infra errors): exit 2, not 1. */
  infrastructure?: boolean;
  /** The comparison a regression check read, printed under its verdict. */
  comparison?: Comparison;
}

export interface BatchGate {
  checks: GateCheck[];
  /** What the numbers leave out or stand on, said so a met gate hides nothing. */
  notes: string[];
  outcome: 'met' | 'failed' | 'infrastructure';
}

export interface BatchGateInput {
  conditions: readonly GateCondition[];
  /** Every run of the batch. */
  entries: readonly RunWithVerdict[];
  /** The batch's arms, baseline arm first (`armGroups`); empty for a batch without arms. */
  arms: readonly ArmGroup[];
  prices: Prices;
  maxInfraErrors?: number;
  /** `--baseline`: the other batch (or batch:arm, or workflow_rev) no case may regress against. */
  baseline?: ComparisonSide;
  judgings?: readonly VerdictSample[];
  /** An until-decided batch's stored decisions: an arm regresses against the baseline arm when the sequential test says so, not Fisher's test. */
  decided?: { batchId: string; decisions: readonly BatchDecision[] };
}

/**
 * The gate over a batch. Without arms: the conditions on the whole batch, and no case may regress
 * against `--baseline`. With arms the arms are never pooled: the baseline arm (the arm without a
 * workflow, else the first) is the reference and is not gated; every other arm must meet each
 * condition on its own runs, must not regress on any case against the baseline arm, and with
 * `--baseline` must not regress against the same arm of that batch (or against it whole when it
 * is one group: a batch without arms, a `batch:ARM`, a workflow_rev). A batch, or any arm, that
 * judged nothing, and more infrastructure failures than allowed, are infrastructure failures.
 */
export function evaluateBatchGate(input: BatchGateInput): BatchGate {
  const notes: string[] = [];
  const measured = (arm: string | null, entries: readonly RunWithVerdict[]) => {
    const stats = groupStats(entries, input.prices);
    const what = arm === null ? 'the batch' : `arm ${arm}`;
    return { stats, check: stats.completed === 0 ? { arm, name: 'measured something', met: false, detail: `${what} measured nothing (0 of ${stats.runs} runs judged)`, infrastructure: true } : null };
  };
  const groups = input.arms.length > 0 ? input.arms.map((a) => ({ arm: a.name as string | null, entries: a.entries })) : [{ arm: null, entries: input.entries }];
  const stats = new Map<string | null, GroupStats>();
  const infra: GateCheck[] = [];
  for (const group of groups) {
    const { stats: s, check } = measured(group.arm, group.entries);
    stats.set(group.arm, s);
    if (check) infra.push(check);
  }
  const all = groupStats(input.entries, input.prices);
  const infraErrors = (all.byStatus.infra_error ?? 0) + (all.byStatus.judge_failed ?? 0);
  if (infra.length === 0 && input.maxInfraErrors !== undefined && infraErrors > input.maxInfraErrors) {
    const perArm = input.arms.length > 0 ? ` (${input.arms.map((a) => `${a.name} ${infraCount(stats.get(a.name)!)}`).join(', ')})` : '';
    infra.push({ arm: null, name: `at most ${input.maxInfraErrors} infrastructure failure(s)`, met: false, detail: `${infraErrors} infrastructure failure(s) (infra_error, judge_failed)${perArm}, more than --max-infra-errors ${input.maxInfraErrors}`, infrastructure: true });
  }
  if (infra.length > 0) return { checks: infra, notes, outcome: 'infrastructure' };

  const checks: GateCheck[] = [];
  const conditionChecks = (arm: string | null, s: GroupStats): GateCheck[] =>
    evaluateGate(input.conditions, s).map((r) => ({ arm, name: r.condition.text, met: r.met, detail: r.value === null ? 'no value' : String(Number(r.value.toFixed(4))) }));
  // The comparison with the baseline arm is printed by the batch's own A/B report; a --baseline one is not.
  const regressionCheck = (arm: string | null, against: ComparisonSide, now: readonly RunWithVerdict[], show = true, decided: SideDecisions | null = null): GateCheck => {
    const compared = compareSides(against, { label: arm ?? 'this batch', entries: now }, input.judgings ? { judgings: input.judgings } : {});
    const comparison = decided ? withDecisions(compared, decided) : compared;
    const regressed = comparison.cases.filter((c) => c.label === 'regression').map((c) => c.caseId);
    return { arm, name: `no regression against ${against.label}`, met: regressed.length === 0, detail: regressed.length === 0 ? 'no case regressed' : `${regressed.length} case(s) regressed: ${regressed.join(', ')}`, ...(show ? { comparison } : {}) };
  };

  if (input.arms.length === 0) {
    checks.push(...conditionChecks(null, stats.get(null)!));
    if (input.baseline) {
      const theirs = armsOf(input.baseline.entries);
      if (theirs.length > 1) checks.push({ arm: null, name: `no regression against ${input.baseline.label}`, met: false, detail: `${input.baseline.label} ran arms ${theirs.join(', ')}: name the one to compare with (--baseline ${input.baseline.label}:${theirs.find((a) => a !== null) ?? 'ARM'})` });
      else checks.push(regressionCheck(null, input.baseline, input.entries));
    }
  } else {
    const [base, ...others] = input.arms as [ArmGroup, ...ArmGroup[]];
    // A batch of one arm has no reference within it: that arm is gated, never passed vacuously.
    const tested = others.length > 0 ? others : [base];
    if (others.length > 0) {
      const baseValues = evaluateGate(input.conditions, stats.get(base.name)!).map((r) => `${r.condition.metric} ${r.value === null ? 'no value' : Number(r.value.toFixed(4))}`);
      notes.push(`arm ${base.name} is the baseline arm: the reference the other arms are measured against, not gated${baseValues.length ? ` (${baseValues.join(', ')})` : ''}`);
    }
    const oneGroup = input.baseline ? armsOf(input.baseline.entries).length <= 1 : false;
    for (const arm of tested) {
      checks.push(...conditionChecks(arm.name, stats.get(arm.name)!));
      const decided = input.decided ? sideDecisions(input.decided.batchId, input.decided.decisions, base.name, arm.name) : null;
      if (decided) notes.push(`arm ${arm.name} against ${base.name}: regressions from the sequential test that stopped the batch (α ${decided.alpha}), not from a test of its accumulated runs`);
      if (arm !== base) checks.push(regressionCheck(arm.name, { label: `the baseline arm ${base.name}`, entries: base.entries }, arm.entries, false, decided));
      if (!input.baseline) continue;
      const same = sameArm(arm.name, input.baseline.entries);
      if (same) checks.push(regressionCheck(arm.name, { label: armLabel(input.baseline.label, arm.name), entries: same }, arm.entries));
      else if (oneGroup) checks.push(regressionCheck(arm.name, input.baseline, arm.entries));
      else checks.push({ arm: arm.name, name: `no regression against ${input.baseline.label}`, met: false, detail: `${input.baseline.label} has no arm ${arm.name} (its arms: ${armsOf(input.baseline.entries).join(', ')}); arms are only compared like for like` });
    }
  }
  for (const [arm, s] of stats) {
    const inDoubt = s.byStatus.needs_review ?? 0;
    // Left out of the numbers above until a person decides; said, so a met gate hides nothing.
    if (inDoubt > 0) notes.push(`${arm === null ? '' : `arm ${arm}: `}${inDoubt} run(s) need a person's review and are not in these numbers (\`evalflow review --pending\`)`);
  }
  return { checks, notes, outcome: checks.every((c) => c.met) ? 'met' : 'failed' };
}

function infraCount(s: GroupStats): number {
  return (s.byStatus.infra_error ?? 0) + (s.byStatus.judge_failed ?? 0);
}

/** `batch-…:ARM`, as `evalflow compare` reads it, when the side is a batch; else in words. */
function armLabel(side: string, arm: string): string {
  if (side.endsWith(`:${arm}`)) return side;
  return /^batch-[^:\s]+$/.test(side) ? `${side}:${arm}` : `arm ${arm} of ${side}`;
}
