/// <reference lib="dom" />
import type { Dashboard, DashboardFilter } from '../schema.js';

/** What the A/B section is handed by the page (see dashboardPage). */
export interface ArmSectionLib {
  markShape: (doc: Document, kind: string, cx: number, cy: number, size?: number) => SVGElement;
  svgElement: (doc: Document, name: string, attributes?: Record<string, string | number>) => SVGElement;
  markLabels: Record<string, string>;
}

/**
 * The first screen of a batch with arms: "did it help". Each arm's pass rate side by side,
 * each arm's difference against the baseline with its interval, the labels counted
 * (regressions first), what insufficient_data means in words, and a matrix of one row per
 * case with every arm's runs side by side, each run a link. Runs inside dashboard.html as its
 * own source text: it uses only its arguments, and sets every store string as text.
 */
export function armSection(doc: Document, model: Dashboard, filter: DashboardFilter, lib: ArmSectionLib): HTMLElement {
  const ab = model.abTest!;
  const el = (tag: string, attributes: Record<string, string> = {}, text?: string): HTMLElement => {
    const element = doc.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const points = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}`;
  const rateText = (r: { rate: number; low: number; high: number } | null, passes: number, judged: number) => (r ? `${passes}/${judged} ${pct(r.rate)} [${pct(r.low)}–${pct(r.high)}]` : 'no judged run');
  const section = el('section', { id: 'ab-test' });
  section.appendChild(el('h2', {}, `Did it help? A/B batch ${ab.batchId}`));

  const cards = el('div', { class: 'kpis ab-arms' });
  for (const [i, arm] of ab.arms.entries()) {
    const card = el('div', { class: 'kpi ab-arm', 'data-arm': arm.name });
    card.appendChild(el('div', { class: 'kpi-title' }, `${arm.name}${arm.change ? ` (${arm.change})` : ''}${i === 0 ? ' · baseline' : ''}`));
    card.appendChild(el('div', { class: 'value' }, arm.rate ? pct(arm.rate.rate) : '–'));
    card.appendChild(el('div', { class: 'interval' }, arm.rate ? `${arm.passes} of ${arm.judged} judged passed, [${pct(arm.rate.low)}–${pct(arm.rate.high)}]` : `no judged run of ${arm.runs}`));
    cards.appendChild(card);
  }
  for (const pair of ab.pairs) {
    const card = el('div', { class: 'kpi ab-difference', 'data-pair': `${pair.a}→${pair.b}` });
    card.appendChild(el('div', { class: 'kpi-title' }, `difference ${pair.b} − ${pair.a}`));
    card.appendChild(el('div', { class: 'value' }, pair.difference ? `${points(pair.difference.mean)} points` : '–'));
    card.appendChild(el('div', { class: 'interval' }, pair.difference ? `[${points(pair.difference.low)}, ${points(pair.difference.high)}] over ${pair.difference.n} case${pair.difference.n === 1 ? '' : 's'}` : 'no case both arms ran comparably'));
    cards.appendChild(card);
  }
  section.appendChild(cards);

  for (const pair of ab.pairs) {
    const total = pair.cases.length;
    const counts = Object.entries(pair.labels).map(([label, n]) => `${n} ${label}`).join(' · ');
    section.appendChild(el('p', { class: 'ab-labels', 'data-pair': `${pair.a}→${pair.b}` }, `${pair.a} → ${pair.b}, ${total} case${total === 1 ? '' : 's'}: ${counts}`));
    const words: string[] = [];
    const d = pair.difference;
    if (d && d.low <= 0 && d.high >= 0) words.push(`The interval of the difference includes 0: this batch does not show that ${pair.b} differs from ${pair.a}.`);
    else if (d) words.push(`The whole interval is ${d.low > 0 ? 'above' : 'below'} 0: ${pair.b} ${d.low > 0 ? 'passed more' : 'passed less'} than ${pair.a} over these cases.`);
    const few = pair.labels.insufficient_data ?? 0;
    if (few > 0) words.push(`${few} of ${total} case${total === 1 ? ' has' : 's have'} too few runs per arm for any difference to reach p < 0.05 (insufficient_data): ${few === 1 ? 'it says' : 'they say'} nothing either way. Run more runs per case (--runs) to tell.`);
    const regressions = pair.cases.filter((c) => c.label === 'regression').map((c) => c.caseId);
    if (regressions.length > 0) words.push(`Worse in ${pair.b}: ${regressions.join(', ')}.`);
    if (words.length > 0) section.appendChild(el('p', { class: 'ab-caveat note', 'data-pair': `${pair.a}→${pair.b}` }, words.join(' ')));
  }
  if (ab.compareHref) {
    const link = el('a', { href: ab.compareHref, id: 'compare-link' }, `the comparison report of ${ab.batchId}`);
    const p = el('p', { class: 'note' }, 'p-values, reviews of every flip: ');
    p.appendChild(link);
    section.appendChild(p);
  }

  // The matrix: one row per case, every arm's runs side by side (each run a link), then each pair's difference.
  const caseOk = (caseId: string) => {
    const evalCase = model.cases.find((c) => c.id === caseId);
    return (filter.case === undefined || filter.case === caseId) && (filter.category === undefined || evalCase?.category === filter.category) && (filter.tag === undefined || (evalCase?.tags ?? []).includes(filter.tag));
  };
  const armShown = ab.arms.map((a) => filter.arm === undefined || filter.arm === a.name);
  const rows = ab.matrix.filter((row) => caseOk(row.caseId));
  const table = el('table', { id: 'ab-matrix' });
  const head = el('tr');
  const body = el('tbody');
  type Key = (row: (typeof rows)[number]) => string | number;
  const columns: { title: string; key: Key }[] = [{ title: 'case', key: (row) => row.caseId }];
  ab.arms.forEach((arm, i) => {
    if (armShown[i]) columns.push({ title: arm.name, key: (row) => row.arms[i]!.rate?.rate ?? -1 });
  });
  for (const pair of ab.pairs) {
    const pick = (row: (typeof rows)[number]) => pair.cases.find((c) => c.caseId === row.caseId);
    columns.push({ title: `${pair.b} − ${pair.a}`, key: (row) => pick(row)?.difference ?? -2 });
    columns.push({ title: 'label', key: (row) => ['regression', 'improvement', 'no_change', 'insufficient_data', 'not_comparable'].indexOf(pick(row)?.label ?? 'not_comparable') });
  }
  const draw = (order: typeof rows) => {
    body.replaceChildren();
    for (const row of order) {
      const tr = el('tr', { 'data-case': row.caseId });
      tr.appendChild(el('td', {}, row.caseId));
      row.arms.forEach((cell, i) => {
        if (!armShown[i]) return;
        const td = el('td', { class: 'ab-cell', 'data-arm': ab.arms[i]!.name });
        const runs = el('span', { class: 'ab-runs' });
        for (const run of cell.runs) {
          const a = el('a', { href: run.href, class: 'ab-run', 'data-run': run.runId, 'data-kind': run.kind, 'data-arm': ab.arms[i]!.name, 'aria-label': `${run.runId}: ${lib.markLabels[run.kind] ?? run.kind}`, title: `${run.runId} (${ab.arms[i]!.name}): ${run.kind}` });
          const svg = lib.svgElement(doc, 'svg', { width: 14, height: 14, viewBox: '-7 -7 14 14', 'aria-hidden': 'true' });
          svg.appendChild(lib.markShape(doc, run.kind, 0, 0, 5));
          a.appendChild(svg);
          runs.appendChild(a);
        }
        td.appendChild(runs);
        td.appendChild(el('span', { class: 'ab-rate' }, ` ${rateText(cell.rate, cell.passes, cell.judged)}`));
        tr.appendChild(td);
      });
      for (const pair of ab.pairs) {
        const c = pair.cases.find((x) => x.caseId === row.caseId);
        tr.appendChild(el('td', { class: 'ab-diff' }, c && c.difference !== null ? `${points(c.difference)}${c.interval ? ` [${points(c.interval.low)}, ${points(c.interval.high)}]` : ''}` : '–'));
        tr.appendChild(el('td', { class: `label-${c?.label ?? 'not_comparable'}` }, c?.label ?? 'not_comparable'));
      }
      body.appendChild(tr);
    }
  };
  columns.forEach((column, index) => {
    const th = el('th', { 'aria-sort': 'none' });
    const button = el('button', { type: 'button', class: 'sort', 'data-column': String(index) }, column.title);
    button.addEventListener('click', () => {
      const ascending = th.getAttribute('aria-sort') !== 'ascending';
      head.querySelectorAll('th').forEach((other) => other.setAttribute('aria-sort', 'none'));
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const sorted = [...rows].sort((x, y) => {
        const a = column.key(x), b = column.key(y);
        return (a < b ? -1 : a > b ? 1 : 0) * (ascending ? 1 : -1);
      });
      draw(sorted);
    });
    th.appendChild(button);
    head.appendChild(th);
  });
  const thead = el('thead');
  thead.appendChild(head);
  table.append(thead, body);
  draw(rows);
  section.appendChild(el('h3', {}, 'Per case, arms side by side (regressions first)'));
  section.appendChild(el('p', { class: 'legend' }, "each mark is a run (it opens the run); a rate is judged passes with its 95% Wilson interval; a difference is in points with Newcombe's interval"));
  section.appendChild(rows.length === 0 ? el('p', {}, 'No case matches the filter.') : table);
  return section;
}
