import { parseOrThrow } from '../format.js';
import type { ComparisonFilter, RunWithVerdict, Store } from '../store/index.js';
import { WorkflowExpectationSchema, type WorkflowExpectation, type WorkflowUsageRow } from '../vocabulary/workflowUsage.js';

/** One run as trigger quality needs it: what its case expected, and what the candidate invoked. */
export interface TriggerObservation {
  expectation: WorkflowExpectation | undefined;
  usage: readonly Pick<WorkflowUsageRow, 'item' | 'invoked'>[];
  /** How many runs observed exactly this (default 1): a side's runs come grouped from the store. */
  runs?: number;
}

/** How well one skill fires where the cases say it must, and stays quiet where they say it must not. */
export interface SkillTrigger {
  /** Invoked where the case expects it (must_use). */
  truePositives: number;
  /** Invoked where the case expects it left alone (must_not_use): a false trigger. */
  falsePositives: number;
  /** Not invoked where the case expects it: a missed trigger. */
  falseNegatives: number;
  /** Left alone where the case expects it left alone. */
  trueNegatives: number;
  /** Runs with an expectation on the skill whose invocation the stream could not tell: in no count. */
  unknown: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/**
 * Per skill, precision, recall and F1 of its invocation against the cases' expectations, over
 * the runs of a bank. Only runs whose case names the skill in `expect_workflow` count (a case
 * silent on a skill says nothing of whether it should fire); an `unknown` invocation counts in
 * none of the four (an inlined skill cannot be measured). A ratio with no runs under it is null.
 */
export function triggerQuality(observations: readonly TriggerObservation[]): Record<string, SkillTrigger> {
  const counts = new Map<string, Omit<SkillTrigger, 'precision' | 'recall' | 'f1'>>();
  const entry = (ref: string) => {
    let found = counts.get(ref);
    if (!found) counts.set(ref, (found = { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, unknown: 0 }));
    return found;
  };
  for (const { expectation, usage, runs = 1 } of observations) {
    if (!expectation) continue;
    const invoked = new Map(usage.map((row) => [row.item, row.invoked]));
    for (const [ref, wanted] of [...expectation.must_use.map((r) => [r, true] as const), ...expectation.must_not_use.map((r) => [r, false] as const)]) {
      if (!ref.startsWith('skills/')) continue;
      const counted = entry(ref);
      const state = invoked.get(ref) ?? 'unknown';
      if (state === 'unknown') counted.unknown += runs;
      else if (wanted) counted[state === 'yes' ? 'truePositives' : 'falseNegatives'] += runs;
      else counted[state === 'yes' ? 'falsePositives' : 'trueNegatives'] += runs;
    }
  }
  const quality: Record<string, SkillTrigger> = {};
  for (const ref of [...counts.keys()].sort()) {
    const c = counts.get(ref)!;
    const precision = ratio(c.truePositives, c.truePositives + c.falsePositives);
    const recall = ratio(c.truePositives, c.truePositives + c.falseNegatives);
    const f1 = precision === null || recall === null ? null : precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    quality[ref] = { ...c, precision, recall, f1 };
  }
  return quality;
}

/** The observations of the given runs: each run's case expectation (from its spec) and its stored usage. Runs without a workflow are left out. */
export async function loadTriggerObservations(store: Store, entries: readonly RunWithVerdict[]): Promise<TriggerObservation[]> {
  const usage = await store.getWorkflowUsage(entries.map((entry) => entry.run.run_id));
  const byRun = new Map<string, WorkflowUsageRow[]>();
  for (const { run_id: runId, ...row } of usage) byRun.set(runId, [...(byRun.get(runId) ?? []), row]);
  return entries
    .filter((entry) => byRun.has(entry.run.run_id))
    .map(({ run }) => {
      const spec = run.spec as { noWorkflow?: boolean; evalCase?: { expectWorkflow?: unknown } } | null;
      const raw = spec?.noWorkflow ? undefined : spec?.evalCase?.expectWorkflow;
      return { expectation: raw === undefined ? undefined : parseOrThrow(WorkflowExpectationSchema, raw, `store: runs.spec of ${run.run_id} (evalCase.expectWorkflow)`), usage: byRun.get(run.run_id)! };
    });
}

/**
 * The observations of a comparison side's runs, as `loadTriggerObservations` makes them from
 * its loaded runs, from the groups the store counted (runs alike in expectation and usage are
 * one group, counted `runs` times, not repeated: a 1,000-run side is a handful): no run is loaded.
 */
export async function loadSideTriggerObservations(store: Store, filter: ComparisonFilter): Promise<TriggerObservation[]> {
  return (await store.triggerObservationStats(filter)).map((group) => {
    const expectation = group.expectation === null ? undefined : parseOrThrow(WorkflowExpectationSchema, group.expectation[0], `store: runs.spec of ${group.run_id} (evalCase.expectWorkflow)`);
    return { expectation, usage: group.usage.map(([item, invoked]) => ({ item, invoked })), runs: group.runs };
  });
}

/** Trigger quality in the field names of evalflow's files (snake_case), ratios to four digits. */
export function triggerQualityFields(quality: Record<string, SkillTrigger>): Record<string, Record<string, number | null>> {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);
  return Object.fromEntries(
    Object.entries(quality).map(([ref, q]) => [
      ref,
      { true_positives: q.truePositives, false_positives: q.falsePositives, false_negatives: q.falseNegatives, true_negatives: q.trueNegatives, unknown: q.unknown, precision: round(q.precision), recall: round(q.recall), f1: round(q.f1) },
    ]),
  );
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/** `skills/node-test  precision 1.00  recall 0.50  F1 0.67  (tp 1 fp 0 fn 1 tn 2, 0 unknown)`, one line per skill. */
export function triggerQualityLines(label: string, quality: Record<string, SkillTrigger>): string[] {
  const entries = Object.entries(quality);
  if (entries.length === 0) return [`trigger quality (${label}): no case expects or forbids a skill`];
  const fixed = (value: number | null) => (value === null ? '–' : value.toFixed(2));
  return [
    `trigger quality (${label}):`,
    ...entries.map(
      ([ref, q]) =>
        `  ${ref}  precision ${fixed(q.precision)}  recall ${fixed(q.recall)}  F1 ${fixed(q.f1)}  (tp ${q.truePositives} fp ${q.falsePositives} fn ${q.falseNegatives} tn ${q.trueNegatives}, ${q.unknown} unknown)`,
    ),
  ];
}
