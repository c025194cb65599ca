import { relative } from 'node:path';
import type { Batch, RunWithVerdict } from '../store/index.js';
import { renderLatestArms } from './latestArmsMarkdown.js';
import type { BatchStats } from './latestStats.js';
import { runIsolation, uncontainedLine } from './runIsolation.js';
import { changedOnlyLine, describeCost, describePassK, describeRate, describeTokens, describeUncounted, fixed, percent, shortRev } from './summaryText.js';

/** Follows the verdict of each uncontained run in the case table. */
const UNCONTAINED_MARK = '†';

/**
 * latest.md: the last batch at a glance. A header line with the pass rate and its interval,
 * pass^k beside pass@k, tokens and cost; per case its verdicts, scores, candidate, model,
 * workflow_rev and a link to each review.md. Runs that were not judged are counted apart, never
 * in a rate; runs that ran uncontained are counted in a line of their own, and marked in the
 * table when the batch also has contained ones. A batch with arms is shown arm by arm instead
 * (latestArmsMarkdown.ts): pooled numbers would hide the difference the batch measures.
 */
export function renderLatest(batch: Batch, stats: BatchStats, entries: readonly RunWithVerdict[], summariesDir: string): string {
  if (stats.arms.length > 1 || stats.arms[0]?.name) return renderLatestArms(batch, stats, entries, summariesDir);
  const arm = stats.arms[0]!;
  const o = arm.overall;
  const passK = describePassK(o.passHatK, o.passAtK);
  // When every run ran uncontained the line above the table says so; a mark on each would be noise.
  const mixed = o.uncontained > 0 && o.uncontained < o.runs;
  const scope = changedOnlyLine(batch.spec);
  const lines = [
    `# Latest batch: ${batch.batch_id}`,
    '',
    `${describeRate(o)}${passK ? `; ${passK}` : ''}; ${describeUncounted(o) || 'every run judged'}.`,
    `Tokens: ${describeTokens(o)}. Cost: ${describeCost(o)}.`,
    `Batch status: ${batch.status}; started ${batch.created_at}.`,
    ...(scope ? [scope] : []),
    ...(o.uncontained > 0 ? [`${uncontainedLine(o.uncontained, o.runs)}${mixed ? `; their verdicts are marked ${UNCONTAINED_MARK} below` : ''}.`] : []),
    '',
    '| case | verdicts | pass rate | compliance | execution | overall | not counted | candidate | model | workflow_rev | reviews |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [caseId, g] of Object.entries(arm.cases)) {
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
