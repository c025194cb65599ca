import * as z from 'zod';
import { sequentialDesign, sequentialVerdict, type PairTally, type SequentialDesign, type SequentialVerdict } from '../stats/index.js';
import { DecisionStopSchema } from '../vocabulary/decisionStop.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';

/**
 * The decision state of an A/B batch run `--until-decided`: per case, its pairs so far (run k of
 * A with run k of B) and, once the sequential test stopped it, why. Plain data, so a workflow can
 * hold it, carry it over continue-as-new and rebuild it on replay; every step is a pure function.
 * The test and how to read it: docs/how-many-runs.md.
 */

/** The limits of a batch run until decided. */
export const UntilDecidedSchema = z.object({
  /** Runs a side per case: the sequential design's limit. */
  maxRunsPerCase: z.number().int().positive(),
  /** Runs in the whole batch, both sides. */
  maxRuns: z.number().int().positive().optional(),
  /** US dollars for the whole batch, from recorded usage and the configured prices. */
  budgetUsd: z.number().positive().optional(),
});
export type UntilDecided = z.infer<typeof UntilDecidedSchema>;

const TallySchema = z.object({ pairs: z.number().int().nonnegative(), bothPassed: z.number().int().nonnegative(), onlyA: z.number().int().nonnegative(), onlyB: z.number().int().nonnegative() });

export const CaseDecisionSchema = z.object({
  caseId: z.string(),
  /** Rounds run, including those whose pair did not count. */
  rounds: z.number().int().nonnegative(),
  tally: TallySchema,
  /** Rounds where a side's run was not judged (infrastructure error, judge failure): no pair. */
  unpaired: z.number().int().nonnegative(),
  /** Set once the test stopped the case; a stopped case never runs again (its futility bound is binding). */
  stopped: z.object({ label: z.string(), stoppedBy: DecisionStopSchema, why: z.string() }).nullable(),
});
export type CaseDecision = z.infer<typeof CaseDecisionSchema>;
/** Why a case stopped: the test decided it (evidence, futility), its own limit, or the batch's (--max-runs, --budget-usd). */
export type CaseStop = NonNullable<CaseDecision['stopped']>['stoppedBy'];

/**
 * A design as it crosses Temporal: JSON has no −Infinity, so a futility bound the limit is too
 * low for travels as null (and a plain null would compare as 0).
 */
export const DesignWireSchema = z.object({
  maxPairs: z.number().int().positive(),
  alpha: z.number(),
  power: z.number(),
  detect: z.number(),
  logToward: z.number(),
  logAway: z.number(),
  logUpper: z.number(),
  logLower: z.number().nullable(),
  reachedPower: z.number().nullable(),
});
export type DesignWire = z.infer<typeof DesignWireSchema>;

export function designToWire(design: SequentialDesign): DesignWire {
  return { ...design, logLower: Number.isFinite(design.logLower) ? design.logLower : null };
}

export function designFromWire(wire: DesignWire): SequentialDesign {
  return { ...wire, logLower: wire.logLower ?? -Infinity };
}

/** Where an until-decided batch's rounds stand: kept in the workflow, carried over continue-as-new, answered to progress queries. */
export const RoundsStateSchema = z.object({
  /** Rounds started so far. */
  round: z.number().int().nonnegative(),
  decisions: z.array(CaseDecisionSchema),
  /** Runs started so far, and their cost at the configured prices (null when a run's cost is unknown). */
  spent: z.object({ runs: z.number().int().nonnegative(), usd: z.number().nullable() }),
  /** Why the batch stopped adding rounds while cases were still open; null otherwise. */
  stop: z.string().nullable(),
});
export type RoundsState = z.infer<typeof RoundsStateSchema>;

/** What an until-decided batch carries in its input: its limits, the design computed once by the client, which arm is A, and its rounds so far. */
export const UntilDecidedInputSchema = z.object({
  limits: UntilDecidedSchema,
  design: DesignWireSchema,
  /** The baseline arm (A of each pair, B − A read as for `compare`) and the other. */
  a: z.string(),
  b: z.string(),
  /** Null until the batch planned its cases; then carried over each continue-as-new. */
  state: RoundsStateSchema.nullable(),
});
export type UntilDecidedInput = z.infer<typeof UntilDecidedInputSchema>;

/** What one round gave a case: each side's verdict, or null when its run was not judged. */
export interface RoundResult {
  caseId: string;
  a: VerdictResult | null;
  b: VerdictResult | null;
}

/** The design for these limits: α 0.05, 80% power at a 40-point difference (docs/how-many-runs.md). */
export function untilDecidedDesign(limits: UntilDecided): SequentialDesign {
  return sequentialDesign({ maxPairs: limits.maxRunsPerCase });
}

export function startDecisions(caseIds: readonly string[]): CaseDecision[] {
  return caseIds.map((caseId) => ({ caseId, rounds: 0, tally: { pairs: 0, bothPassed: 0, onlyA: 0, onlyB: 0 }, unpaired: 0, stopped: null }));
}

/** The cases that get another round. */
export function openCases(decisions: readonly CaseDecision[]): string[] {
  return decisions.filter((d) => d.stopped === null).map((d) => d.caseId);
}

/**
 * The decisions after a round: each open case's pair added to its tally, then the test asked.
 * A case at its limit of rounds stops there even when unjudged runs left it short of pairs.
 */
export function settleRound(design: SequentialDesign, decisions: readonly CaseDecision[], results: readonly RoundResult[]): CaseDecision[] {
  const byCase = new Map(results.map((r) => [r.caseId, r]));
  return decisions.map((decision) => {
    const result = byCase.get(decision.caseId);
    if (decision.stopped || !result) return decision;
    const judged = result.a !== null && result.b !== null;
    const tally: PairTally = { ...decision.tally };
    if (judged) {
      tally.pairs++;
      const a = result.a === 'pass';
      const b = result.b === 'pass';
      if (a && b) tally.bothPassed++;
      else if (a) tally.onlyA++;
      else if (b) tally.onlyB++;
    }
    const next: CaseDecision = { ...decision, rounds: decision.rounds + 1, tally, unpaired: decision.unpaired + (judged ? 0 : 1) };
    const verdict = caseVerdict(design, next);
    if (verdict.stoppedBy) return { ...next, stopped: { label: verdict.label, stoppedBy: verdict.stoppedBy, why: verdict.why } };
    if (next.rounds >= design.maxPairs) {
      return { ...next, stopped: { label: 'insufficient_data', stoppedBy: 'limit', why: `reached the limit of ${design.maxPairs} runs a side with ${tally.pairs} judged pairs (${next.unpaired} rounds had a side not judged); ${verdict.why}` } };
    }
    return next;
  });
}

/** Where a case stands now: the sequential test's verdict on its tally. */
export function caseVerdict(design: SequentialDesign, decision: CaseDecision): SequentialVerdict {
  return sequentialVerdict(design, decision.tally);
}

/**
 * Why the batch must stop before another round of `open` cases, or null when it may go on: the
 * run limit when the round would pass it, the budget when what was spent so far, plus the round
 * at the mean cost of a run so far, would pass it.
 */
export function batchLimitReached(limits: UntilDecided, spent: { runs: number; usd: number | null }, open: number): { by: 'batch_limit' | 'budget'; why: string } | null {
  const round = 2 * open;
  if (limits.maxRuns !== undefined && spent.runs + round > limits.maxRuns) {
    return { by: 'batch_limit', why: `--max-runs ${limits.maxRuns}: ${spent.runs} runs so far, and the next round's ${round} would pass it` };
  }
  if (limits.budgetUsd !== undefined && spent.usd !== null && spent.runs > 0) {
    const projected = spent.usd + (spent.usd / spent.runs) * round;
    if (projected > limits.budgetUsd) return { by: 'budget', why: `--budget-usd ${limits.budgetUsd}: $${spent.usd.toFixed(2)} spent, and the next round's ${round} runs would bring it to about $${projected.toFixed(2)}` };
  }
  return null;
}

/** The decisions once the batch stopped for its own limit: every open case ends undecided, saying which limit and where its evidence stood. */
export function stopOpenCases(design: SequentialDesign, decisions: readonly CaseDecision[], stop: { by: 'batch_limit' | 'budget'; why: string }): CaseDecision[] {
  return decisions.map((decision) =>
    decision.stopped ? decision : { ...decision, stopped: { label: 'insufficient_data', stoppedBy: stop.by, why: `the batch stopped at ${stop.why}; ${caseVerdict(design, decision).why}` } },
  );
}

/** One line of progress for a case: runs so far, B − A with its interval, decided or open, and why. */
export function decisionLine(design: SequentialDesign, decision: CaseDecision): string {
  const verdict = caseVerdict(design, decision);
  const interval = verdict.interval ? `${signed(verdict.interval.difference)} (${signed(verdict.interval.low)}…${signed(verdict.interval.high)})` : 'no pair yet';
  const decided = decision.stopped?.stoppedBy === 'evidence' || decision.stopped?.stoppedBy === 'futility';
  const state = decision.stopped ? `${decided ? 'decided' : `stopped (${STOP_NAMES[decision.stopped.stoppedBy]})`} ${decision.stopped.label}` : 'open';
  return `${decision.caseId}  ${decision.rounds} run${decision.rounds === 1 ? '' : 's'} a side  B−A ${interval}  ${state}: ${decision.stopped?.why ?? verdict.why}`;
}

/** How progress names why a case stopped short of a decision. */
const STOP_NAMES: Record<CaseStop, string> = { evidence: 'decided', futility: 'decided', limit: 'per-case limit', batch_limit: 'batch limit', budget: 'budget' };

function signed(x: number): string {
  const points = Math.round(x * 100);
  return points === 0 ? '±0' : points > 0 ? `+${points}` : `−${-points}`;
}
