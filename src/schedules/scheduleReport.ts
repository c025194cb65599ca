import { inertMarkdown } from '../markdown/inertMarkdown.js';
import * as z from 'zod';
import { BatchCountsSchema, type BatchCounts } from '../run/batchInput.js';
import { ScheduleVerdictSchema, type ScheduleVerdict } from '../store/scheduleSchema.js';
import type { Comparison } from '../summaries/comparison.js';

/** One arm's comparison: arm X of the other batch with arm X of this one. */
export const ArmComparisonSchema = z.object({
  arm: z.string(),
  pass_rate_then: z.number().nullable(),
  pass_rate_now: z.number().nullable(),
  regressions: z.array(z.string()),
  improvements: z.array(z.string()),
  not_comparable: z.array(z.string()),
});
export type ArmComparison = z.infer<typeof ArmComparisonSchema>;

/**
 * One comparison of a scheduled batch, as the report and `--notify` carry it. For a batch with
 * arms the arms are never pooled: `arms` holds each arm against the same arm of the other batch,
 * the pass rates above are null, and the case lists name `ARM:CASE` (so a check of
 * `regressions` still sees every arm's).
 */
export const ReportComparisonSchema = z.object({
  /** The other batch (the previous firing, or the baseline). */
  against: z.string(),
  pass_rate_then: z.number().nullable(),
  pass_rate_now: z.number().nullable(),
  regressions: z.array(z.string()),
  improvements: z.array(z.string()),
  not_comparable: z.array(z.string()),
  arms: z.array(ArmComparisonSchema).optional(),
  /** The other batch ran until decided: its labels here are Fisher's test, approximate (`sequentialSideNotes`). Absent in reports written before. */
  method_notes: z
    .array(z.string())
    .optional()
    .describe("one note when the other batch ran until decided: these labels are Fisher's exact test on its runs (its stored decisions answer its own two arms only, or it stored none), approximate"),
});
export type ReportComparison = z.infer<typeof ReportComparisonSchema>;

/**
 * What a scheduled batch ends with: written to summaries/schedules/NAME.json, kept in the
 * store, and given to `--notify` on stdin. A stable format (docs/schedules.md).
 */
export const ScheduleReportSchema = z.object({
  schedule: z.string(),
  batch_id: z.string(),
  /** When the firing was due (ISO-8601). */
  scheduled_at: z.string(),
  workflow_rev: z.string().nullable(),
  /** The batch's status: completed, failed, cancelled. */
  status: z.string(),
  verdict: ScheduleVerdictSchema,
  counts: BatchCountsSchema,
  previous: ReportComparisonSchema.nullable(),
  baseline: ReportComparisonSchema.nullable(),
  /** One line that says it all, e.g. `schedule nightly, batch … FAILED: 0 of 3 runs completed; nothing was measured`. */
  headline: z.string(),
  /** What went wrong before or around the batch (planning refused, a comparison that could not be made, --notify). */
  problems: z.array(z.string()),
});
export type ScheduleReport = z.infer<typeof ScheduleReportSchema>;

export function reportComparison(against: string, comparison: Comparison): ReportComparison {
  return { against, ...ratesAndCases(comparison) };
}

/** The comparison of a batch with arms: per arm, like for like; the pooled rates left out. */
export function reportArmComparisons(against: string, arms: readonly { arm: string; comparison: Comparison }[]): ReportComparison {
  const each = arms.map(({ arm, comparison }) => ({ arm, ...ratesAndCases(comparison) }));
  const named = (pick: (a: ArmComparison) => string[]) => each.flatMap((a) => pick(a).map((caseId) => `${a.arm}:${caseId}`));
  return {
    against,
    pass_rate_then: null,
    pass_rate_now: null,
    regressions: named((a) => a.regressions),
    improvements: named((a) => a.improvements),
    not_comparable: named((a) => a.not_comparable),
    arms: each,
  };
}

function ratesAndCases(comparison: Comparison): Omit<ArmComparison, 'arm'> {
  const named = (label: string) => comparison.cases.filter((c) => c.label === label).map((c) => c.caseId);
  return {
    pass_rate_then: comparison.a.rate?.rate ?? null,
    pass_rate_now: comparison.b.rate?.rate ?? null,
    regressions: named('regression'),
    improvements: named('improvement'),
    not_comparable: named('not_comparable'),
  };
}

/**
 * A firing failed when it measured nothing (no run was judged) or never got to run; it
 * regressed when any case regressed against the previous firing or the baseline.
 */
export function verdictOf(status: string, counts: BatchCounts, comparisons: readonly (ReportComparison | null)[]): ScheduleVerdict {
  const judged = (counts.completed ?? 0) + (counts.needs_review ?? 0);
  if (status === 'failed' || judged === 0) return 'failed';
  return comparisons.some((c) => c && c.regressions.length > 0) ? 'regression' : 'ok';
}

export function headlineOf(report: Omit<ScheduleReport, 'headline'>): string {
  const total = Math.max(report.counts.finished, 0);
  const judged = (report.counts.completed ?? 0) + (report.counts.needs_review ?? 0);
  const start = `schedule ${report.schedule}, batch ${report.batch_id}`;
  if (report.verdict === 'failed') {
    return `${start} FAILED: ${judged} of ${total} runs completed${report.problems[0] ? ` (${report.problems[0]})` : ''}; nothing was measured`;
  }
  const rate = (c: ReportComparison | null, what: string) =>
    c ? `${what} ${c.against}: ${ratesOf(c)}${c.regressions.length ? `, regressed: ${c.regressions.join(', ')}` : ''}` : `no ${what} to compare with`;
  return `${start} ${report.verdict === 'regression' ? 'REGRESSED' : 'ok'}: ${report.counts.passed} pass, ${report.counts.failed} fail of ${total}; ${rate(report.previous, 'previous')}; ${rate(report.baseline, 'baseline')}`;
}

/** The report as summaries/schedules/NAME.md shows it. */
export function reportMarkdown(report: ScheduleReport): string {
  const section = (title: string, c: ReportComparison | null) =>
    c
      ? [
          `## ${title}: ${c.against}`,
          '',
          ...(c.arms ? ['Each arm against the same arm of that batch (arms are never pooled):', ''] : []),
          `- pass rate: ${ratesOf(c)}`,
          `- regressed: ${c.regressions.join(', ') || 'none'}`,
          `- improved: ${c.improvements.join(', ') || 'none'}`,
          ...(c.not_comparable.length ? [`- not comparable: ${c.not_comparable.join(', ')}`] : []),
          ...(c.method_notes ?? []).map((n) => `- note: ${inertMarkdown(n)}`),
          '',
        ]
      : [`## ${title}`, '', 'none yet', ''];
  return [
    `# ${report.schedule}: ${report.verdict === 'failed' ? 'FAILED' : report.verdict}`,
    '',
    report.headline,
    '',
    `- batch: ${report.batch_id} (${report.status}), scheduled for ${report.scheduled_at}`,
    `- workflow_rev: ${report.workflow_rev ?? 'unknown'}`,
    ...report.problems.map((p) => `- problem: ${inertMarkdown(p)}`),
    '',
    ...section('Against the previous scheduled batch', report.previous),
    ...section('Against the baseline', report.baseline),
  ].join('\n');
}

/** `80% → 60%`; per arm, `main 80% → 80%, pr 80% → 60%`. */
function ratesOf(c: ReportComparison): string {
  if (c.arms) return c.arms.map((a) => `${a.arm} ${percent(a.pass_rate_then)} → ${percent(a.pass_rate_now)}`).join(', ') || 'no arm compared';
  return `${percent(c.pass_rate_then)} → ${percent(c.pass_rate_now)}`;
}

function percent(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 100)}%`;
}
