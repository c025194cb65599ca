import { relative } from 'node:path';
import { LABEL_ORDER, type ComparisonLabel } from '../stats/index.js';
import type { Batch, RunWithVerdict } from '../store/index.js';
import type { CaseRow, Comparison } from './comparison.js';
import type { ArmStats, BatchStats, SummaryGroup } from './latestStats.js';
import { uncontainedLine } from './runIsolation.js';
import { changedOnlyLine, describeCost, describePassK, describeTokens, describeUncounted, fixed, percent, signedPoints } from './summaryText.js';

/**
 * latest.md of a batch with arms: the arms side by side first (pass rate, pass^k beside pass@k,
 * mean overall with its bootstrap interval, cost), then each arm against the first arm (labels
 * counted, the bank's difference with its interval, what insufficient_data means), then one row
 * per case with every arm's verdicts and rate and each difference, regressions first. Every
 * comparison goes one way: an arm's pass rate minus the first arm's.
 */
export function renderLatestArms(batch: Batch, stats: BatchStats, entries: readonly RunWithVerdict[], summariesDir: string): string {
  const [first, ...others] = stats.arms as [ArmStats, ...ArmStats[]];
  const lines = [
    `# Latest batch: ${batch.batch_id}`,
    '',
    `An A/B batch with ${stats.arms.length} arms; each arm is compared with the first, ${first.name}: a difference is that arm's pass rate minus ${first.name}'s, in points.`,
    '',
    '| arm | change | pass rate (95%) | pass^k (pass@k) | overall (95% bootstrap) | not counted | cost |',
    '|---|---|---|---|---|---|---|',
    ...stats.arms.map((arm) => `| ${arm.name} | ${arm.change ?? '–'} | ${rateCell(arm.overall, true)} | ${describePassK(arm.overall.passHatK, arm.overall.passAtK) || '–'} | ${meanCell(arm.overall)} | ${describeUncounted(arm.overall) || '–'} | ${describeCost(arm.overall)} |`),
    '',
  ];
  for (const arm of others) lines.push(...versusLines(arm.name!, first.name!, arm.versusFirst!), '');
  lines.push(`Tokens: ${stats.arms.map((arm) => `${arm.name}: ${describeTokens(arm.overall)}`).join('; ')}.`, `Batch status: ${batch.status}; started ${batch.created_at}.`);
  const scope = changedOnlyLine(batch.spec);
  if (scope) lines.push(scope);
  for (const arm of stats.arms) {
    const uncontained = uncontainedLine(arm.overall.uncontained, arm.overall.runs);
    if (uncontained) lines.push(`${arm.name}: ${uncontained}.`);
  }
  lines.push('', ...caseTable(stats, entries, summariesDir));
  return `${lines.join('\n')}\n`;
}

function versusLines(name: string, firstName: string, c: Comparison): string[] {
  const labels = LABEL_ORDER.filter((l) => c.labels[l] > 0).map((l) => `${c.labels[l]} ${l}`).join(', ') || 'no cases';
  const bank = c.difference
    ? `mean difference ${signedPoints(c.difference.mean)} points (95% bootstrap ${signedPoints(c.difference.low)}…${signedPoints(c.difference.high)}) over ${c.difference.n} comparable case(s)`
    : 'no case both arms ran comparably';
  const mcnemar = c.mcnemar ? `; McNemar p=${c.mcnemar.p.toFixed(3)} over ${c.mcnemar.pairs} paired run(s)` : '';
  const lines = [`**${name} against ${firstName}**: ${labels}; ${bank}${mcnemar}.`];
  if (c.labels.insufficient_data > 0) {
    lines.push(
      `${c.labels.insufficient_data} case(s) are insufficient_data: with so few runs an arm no outcome could reach p < 0.05 (with equal counts, fewer than 4 runs an arm), so their differences say nothing either way; more runs per case (--runs-per-case) can.`,
    );
  }
  return lines;
}

function caseTable(stats: BatchStats, entries: readonly RunWithVerdict[], summariesDir: string): string[] {
  const [first, ...others] = stats.arms as [ArmStats, ...ArmStats[]];
  const rowsOf = (arm: ArmStats) => new Map((arm.versusFirst?.cases ?? []).map((row) => [row.caseId, row]));
  const versus = others.map(rowsOf);
  const caseIds = [...new Set(stats.arms.flatMap((arm) => Object.keys(arm.cases)))];
  const rank = (caseId: string) => Math.min(LABEL_ORDER.length, ...versus.map((rows) => LABEL_ORDER.indexOf(rows.get(caseId)?.label ?? 'not_comparable')));
  caseIds.sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : 1));
  const header = ['case', `${first.name}`, ...others.flatMap((arm) => [`${arm.name}`, `${arm.name} − ${first.name} (95%)`, 'label, p']), 'reviews'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---|').join('')}`];
  for (const caseId of caseIds) {
    const cells = [caseId, armCell(first, caseId, entries)];
    for (const [i, arm] of others.entries()) {
      const row = versus[i]!.get(caseId);
      cells.push(armCell(arm, caseId, entries), differenceCell(row), labelCell(row));
    }
    const reviews = stats.arms
      .flatMap((arm) => runsOf(entries, arm.name, caseId).map((e, i) => `[${arm.name}${i + 1}](${relative(summariesDir, `${e.run.run_dir}/review.md`)})`))
      .join(' ');
    lines.push(`| ${[...cells, reviews].join(' | ')} |`);
  }
  return lines;
}

function runsOf(entries: readonly RunWithVerdict[], arm: string | null, caseId: string): RunWithVerdict[] {
  return entries.filter((e) => e.run.arm === arm && e.run.case_id === caseId).sort((a, b) => a.run.run_id.localeCompare(b.run.run_id, 'en', { numeric: true }));
}

/** `pass fail · 50% (9%–91%)`: an arm's verdicts of the case and its pass rate. */
function armCell(arm: ArmStats, caseId: string, entries: readonly RunWithVerdict[]): string {
  const g = arm.cases[caseId];
  if (!g) return 'not run';
  const verdicts = runsOf(entries, arm.name, caseId).map((e) => (e.run.status === 'completed' ? (e.verdict?.result ?? '?') : e.run.status)).join(' ');
  return `${verdicts} · ${rateCell(g, false)}`;
}

function rateCell(g: SummaryGroup, counts: boolean): string {
  if (!g.passRate) return 'nothing judged';
  return `${percent(g.passRate.rate)} (${percent(g.passRate.low)}–${percent(g.passRate.high)})${counts ? `, ${g.passes} of ${g.completed}` : ''}`;
}

function meanCell(g: SummaryGroup): string {
  const m = g.meanInterval.overall;
  return m ? `${fixed(m.mean)} (${fixed(m.low)}–${fixed(m.high)})` : '–';
}

function differenceCell(row: CaseRow | undefined): string {
  if (!row || row.difference === null || !row.differenceInterval) return '–';
  return `${signedPoints(row.difference)} (${signedPoints(row.differenceInterval.low)}…${signedPoints(row.differenceInterval.high)})`;
}

function labelCell(row: CaseRow | undefined): string {
  if (!row) return '–';
  const label: ComparisonLabel = row.label;
  if (label === 'not_comparable') return `${label}: ${row.reason ?? ''}`;
  return `${label}${row.p !== null ? `, p=${row.p.toFixed(3)}` : ''}`;
}
