import { relative } from 'node:path';
import type { Comparison, SideTotals } from './comparison.js';
import { uncontainedLine } from './runIsolation.js';

/** The comparison as a terminal prints it: the two sides, the bank's difference, then one row per case, regressions first. */
export function comparisonLines(comparison: Comparison, cwd: string): string[] {
  const lines = [describeSide('A', comparison.a), describeSide('B', comparison.b), describeBank(comparison), ''];
  const rows = comparison.cases.map((c) => [
    c.label,
    c.caseId,
    `${c.a?.completed ?? 0}/${c.b?.completed ?? 0}`,
    c.rateA && c.rateB ? `${rate(c.rateA)} → ${rate(c.rateB)}` : '–',
    c.difference !== null && c.differenceInterval ? `${signed(c.difference)} (${signed(c.differenceInterval.low)}…${signed(c.differenceInterval.high)})` : '–',
    `${fixed(c.meanOverallA)} → ${fixed(c.meanOverallB)}`,
    `${c.stabilityA} / ${c.stabilityB}`,
    c.label === 'not_comparable' ? (c.reason ?? '') : c.detectable === null ? 'too few runs to tell' : `≥${Math.round(c.detectable * 100)} pts${c.p !== null ? `, p=${c.p.toFixed(3)}` : ''}`,
  ]);
  const header = ['label', 'case', 'judged A/B', 'pass rate A → B', 'difference (95%)', 'overall A → B', 'stability A / B', 'detectable / why'];
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
  const parts = [`# ${title}`, '', ...(note ? [note, ''] : []), `- ${describeSide('A', comparison.a)}`, `- ${describeSide('B', comparison.b)}`, `- ${describeBank(comparison)}`, ''];
  parts.push('| label | case | judged A/B | pass rate A → B | difference (95%) | overall A → B | detectable | reviews |', '|---|---|---|---|---|---|---|---|');
  for (const c of comparison.cases) {
    const links = (side: string, paths: string[]) => paths.map((p, i) => `[${side}${i + 1}](${relative(summariesDir, p)})`).join(' ');
    parts.push(
      `| ${c.label} | ${c.caseId} | ${c.a?.completed ?? 0}/${c.b?.completed ?? 0} | ${c.rateA && c.rateB ? `${rate(c.rateA)} → ${rate(c.rateB)}` : '–'} | ${c.difference !== null && c.differenceInterval ? `${signed(c.difference)} (${signed(c.differenceInterval.low)}…${signed(c.differenceInterval.high)})` : '–'} | ${fixed(c.meanOverallA)} → ${fixed(c.meanOverallB)} | ${c.label === 'not_comparable' ? (c.reason ?? '') : c.detectable === null ? 'too few runs' : `≥${Math.round(c.detectable * 100)} pts`} | ${links('A', c.reviewsA)} ${links('B', c.reviewsB)} |`,
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
  const labels = Object.entries(c.labels).filter(([, n]) => n > 0).map(([label, n]) => `${n} ${label}`).join(', ');
  const diff = c.difference ? `mean difference B − A ${signed(c.difference.mean)} (95% bootstrap ${signed(c.difference.low)}…${signed(c.difference.high)}) over ${c.difference.n} comparable case(s)` : 'no comparable case';
  const mcnemar = c.mcnemar ? `; McNemar p=${c.mcnemar.p.toFixed(3)} over ${c.mcnemar.pairs} paired run(s)` : '';
  return `${labels || 'no cases'}; ${diff}${mcnemar}`;
}

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
