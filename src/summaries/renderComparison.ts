import { relative } from 'node:path';
import type { Comparison, SideTotals } from './comparison.js';
import type { CaseDecisionFacts } from './caseDecisionFacts.js';
import { uncontainedLine } from './runIsolation.js';

/** The comparison as a terminal prints it: the two sides, the bank's difference, then one row per case, regressions first. */
export function comparisonLines(comparison: Comparison, cwd: string): string[] {
  const lines = [describeSide('A', comparison.a), describeSide('B', comparison.b), describeBank(comparison), ...(comparison.methodNotes ?? []).map((n) => `note: ${n}`), ''];
  const rows = comparison.cases.map((c) => [
    c.label,
    c.caseId,
    `${c.a?.completed ?? 0}/${c.b?.completed ?? 0}`,
    c.rateA && c.rateB ? `${rate(c.rateA)} → ${rate(c.rateB)}` : '–',
    c.difference !== null && c.differenceInterval ? `${signed(c.difference)} (${signed(c.differenceInterval.low)}…${signed(c.differenceInterval.high)})` : '–',
    `${fixed(c.meanOverallA)} → ${fixed(c.meanOverallB)}`,
    `${c.stabilityA} / ${c.stabilityB}`,
    c.decision ? decisionWhy(c.decision) : c.label === 'not_comparable' ? (c.reason ?? '') : c.detectable === null ? 'too few runs to tell' : `≥${Math.round(c.detectable * 100)} pts${c.p !== null ? `, p=${c.p.toFixed(3)}` : ''}`,
  ]);
  const header = ['label', 'case', 'judged A/B', 'pass rate A → B', 'difference (95%)', 'overall A → B', 'stability A / B', comparison.sequential ? 'stopped / why' : 'detectable / why'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  lines.push(line(header), line(widths.map((w) => '-'.repeat(w))));
  for (const [i, row] of rows.entries()) {
    lines.push(line(row));
    const c = comparison.cases[i]!;
    if (c.label === 'regression' || c.label === 'improvement') {
      lines.push(`    A: ${c.reviewsA.map((p) => relative(cwd, p)).join(' ')}`, `    B: ${c.reviewsB.map((p) => relative(cwd, p)).join(' ')}`);
    }
  }
  return lines;
}

/** compare-<batch>.md: the same as Markdown, with links to both sides' reviews of every flip, and a note on how to read it when given. */
export function comparisonMarkdown(title: string, comparison: Comparison, summariesDir: string, note?: string): string {
  const parts = [`# ${title}`, '', ...(note ? [note, ''] : []), `- ${describeSide('A', comparison.a)}`, `- ${describeSide('B', comparison.b)}`, `- ${describeBank(comparison)}`, ...(comparison.methodNotes ?? []).map((n) => `- note: ${n}`), ''];
  parts.push(`| label | case | judged A/B | pass rate A → B | difference (95%) | overall A → B | ${comparison.sequential ? 'stopped / why' : 'detectable'} | reviews |`, '|---|---|---|---|---|---|---|---|');
  for (const c of comparison.cases) {
    const links = (side: string, paths: string[]) => paths.map((p, i) => `[${side}${i + 1}](${relative(summariesDir, p)})`).join(' ');
    parts.push(
      `| ${c.label} | ${c.caseId} | ${c.a?.completed ?? 0}/${c.b?.completed ?? 0} | ${c.rateA && c.rateB ? `${rate(c.rateA)} → ${rate(c.rateB)}` : '–'} | ${c.difference !== null && c.differenceInterval ? `${signed(c.difference)} (${signed(c.differenceInterval.low)}…${signed(c.differenceInterval.high)})` : '–'} | ${fixed(c.meanOverallA)} → ${fixed(c.meanOverallB)} | ${c.decision ? decisionWhy(c.decision).replaceAll('|', '\\|') : c.label === 'not_comparable' ? (c.reason ?? '') : c.detectable === null ? 'too few runs' : `≥${Math.round(c.detectable * 100)} pts`} | ${links('A', c.reviewsA)} ${links('B', c.reviewsB)} |`,
    );
  }
  return `${parts.join('\n')}\n`;
}

function describeSide(name: string, side: SideTotals): string {
  const uncounted = Object.entries(side.uncounted).map(([status, n]) => `${n} ${status}`).join(', ');
  const uncontained = uncontainedLine(side.uncontained, side.runs);
  return `${name}: ${side.label}: ${side.runs} run(s), ${side.completed} judged${side.rate ? `, pass rate ${rate(side.rate)}` : ''}${uncounted ? `; not counted: ${uncounted}` : ''}${uncontained ? `; ${uncontained}` : ''}`;
}

function describeBank(c: Comparison): string {
  const method = c.sequential
    ? `labels from the sequential test (α ${c.sequential.alpha}, at most ${c.sequential.maxRunsPerCase} runs a side per case; docs/how-many-runs.md), not from a test of the accumulated runs; `
    : '';
  const labels = Object.entries(c.labels).filter(([, n]) => n > 0).map(([label, n]) => `${n} ${label}`).join(', ');
  const diff = c.difference ? `mean difference B − A ${signed(c.difference.mean)} (95% bootstrap ${signed(c.difference.low)}…${signed(c.difference.high)}) over ${c.difference.n} comparable case(s)` : 'no comparable case';
  const mcnemar = c.mcnemar ? `; McNemar p=${c.mcnemar.p.toFixed(3)} over ${c.mcnemar.pairs} paired run(s)` : '';
  return `${method}${labels || 'no cases'}; ${diff}${mcnemar}`;
}

/** Why the sequential test stopped a case, as the last column says it. */
function decisionWhy(d: CaseDecisionFacts): string {
  const stop = d.stoppedBy === null ? 'open when the batch ended' : d.stoppedBy === 'evidence' || d.stoppedBy === 'futility' ? 'decided' : STOP_NAMES[d.stoppedBy];
  return `${d.runsASide} run${d.runsASide === 1 ? '' : 's'} a side, ${stop}: ${d.why}`;
}

const STOP_NAMES = { limit: 'per-case limit', batch_limit: 'batch limit', budget: 'budget' } as const;

function rate(r: { rate: number; low: number; high: number }): string {
  return `${Math.round(r.rate * 100)}% (${Math.round(r.low * 100)}–${Math.round(r.high * 100)})`;
}

function signed(value: number): string {
  const points = Math.round(value * 100);
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points)}`;
}

function fixed(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}
