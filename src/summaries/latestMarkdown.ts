import { relative } from 'node:path';
import type { Batch, RunWithVerdict } from '../store/index.js';
import { changedOnlyOf, describeChangedOnly } from '../vocabulary/changedOnly.js';
import type { GroupStats } from './groupStats.js';
import type { BatchStats } from './latestStats.js';
import { runIsolation, uncontainedLine } from './runIsolation.js';

/** Follows the verdict of each uncontained run in the case table. */
const UNCONTAINED_MARK = '†';

/**
 * latest.md: the last batch at a glance. A header line with the pass rate and its interval,
 * pass^k, tokens and cost; per case its verdicts, scores, candidate, model, workflow_rev and a
 * link to each review.md. Runs that were not judged are counted apart, never in a rate; runs
 * that ran uncontained are counted in a line of their own, and marked in the table when the
 * batch also has contained ones.
 */
export function renderLatest(batch: Batch, stats: BatchStats, entries: readonly RunWithVerdict[], summariesDir: string): string {
  const o = stats.overall;
  const passHat = Object.entries(o.passHatK)
    .filter(([k]) => Number(k) > 1)
    .map(([k, v]) => `pass^${k} ${v === null ? '–' : v.toFixed(2)}`)
    .join(', ');
  // When every run ran uncontained the line above the table says so; a mark on each would be noise.
  const mixed = o.uncontained > 0 && o.uncontained < o.runs;
  const scope = changedOnlyOf(batch.spec);
  const lines = [
    `# Latest batch: ${batch.batch_id}`,
    '',
    `${describeRate(o)}${passHat ? `; ${passHat}` : ''}; ${describeUncounted(o) || 'every run judged'}.`,
    `Tokens: ${describeTokens(o)}. Cost: ${o.cost.total === null ? 'unknown (a price or a usage is missing)' : `$${o.cost.total.toFixed(4)}`}.`,
    `Batch status: ${batch.status}; started ${batch.created_at}.`,
    ...(scope ? [`Covers only the cases of ${describeChangedOnly(scope)}; skipped: ${scope.skipped.map((c) => c.case_id).join(', ') || 'none'}.`] : []),
    ...(o.uncontained > 0 ? [`${uncontainedLine(o.uncontained, o.runs)}${mixed ? `; their verdicts are marked ${UNCONTAINED_MARK} below` : ''}.`] : []),
    '',
    '| case | verdicts | pass rate | compliance | execution | overall | not counted | candidate | model | workflow_rev | reviews |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [caseId, g] of Object.entries(stats.cases)) {
    const runs = entries.filter((e) => e.run.case_id === caseId).sort((a, b) => a.run.run_id.localeCompare(b.run.run_id, 'en', { numeric: true }));
    const verdicts = runs.map((e) => `${e.run.status === 'completed' ? (e.verdict?.result ?? '?') : e.run.status}${mixed && runIsolation(e.run) === 'none' ? UNCONTAINED_MARK : ''}`).join(' ');
    const distinct = (values: (string | null | undefined)[]) => [...new Set(values.map((v) => v ?? '–'))].join(', ');
    const reviews = runs.map((e, i) => `[${i + 1}](${relative(summariesDir, `${e.run.run_dir}/review.md`)})`).join(' ');
    lines.push(
      `| ${caseId} | ${verdicts} | ${g.passRate ? `${percent(g.passRate.rate)} (${percent(g.passRate.low)}–${percent(g.passRate.high)})` : '–'} | ${fixed(g.mean.compliance)} | ${fixed(g.mean.execution_quality)} | ${fixed(g.mean.overall)} | ${describeUncounted(g) || '–'} | ${distinct(runs.map((e) => e.run.candidate))} | ${distinct(runs.map((e) => e.run.models.candidate))} | ${distinct(runs.map((e) => shortRev(e.run.workflow_rev)))} | ${reviews} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function describeRate(g: GroupStats): string {
  if (!g.passRate) return 'Pass rate: nothing judged';
  return `Pass rate ${percent(g.passRate.rate)} (95% interval ${percent(g.passRate.low)}–${percent(g.passRate.high)}), ${g.passes} of ${g.completed} judged runs`;
}

/** `2 infra_error, 1 aborted`: the runs a rate does not count, by status. */
function describeUncounted(g: GroupStats): string {
  return Object.entries(g.byStatus)
    .filter(([status]) => status !== 'completed')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

function describeTokens(g: GroupStats): string {
  return (['examiner', 'candidate', 'judge'] as const)
    .map((role) => {
      const usage = g.tokens[role];
      return `${role} ${usage ? `${usage.input_tokens} in / ${usage.output_tokens} out` : 'unknown'}`;
    })
    .join(', ');
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function fixed(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

function shortRev(rev: string | null): string | null {
  if (!rev) return rev;
  return /^[0-9a-f]{40}/.test(rev) ? `${rev.slice(0, 7)}${rev.endsWith('+dirty') ? '+dirty' : ''}` : rev;
}
