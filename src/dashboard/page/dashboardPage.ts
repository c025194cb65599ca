/// <reference lib="dom" />
import type { DashboardStats, GroupDimension, GroupRow, Kpis, TrendPoint, BatchKpis } from '../aggregate.js';
import type { Dashboard, DashboardFilter } from '../schema.js';
import type { TimelineMark, TrendSeries } from './svgCharts.js';
import type { ArmSectionLib } from './armSection.js';

/** What the page is handed: the aggregate functions, the charts and the statistics (see renderDashboard). */
export interface PageLib {
  stats: DashboardStats;
  kpisOf: (model: Dashboard, filter: DashboardFilter, stats: DashboardStats) => Kpis;
  trendOf: (model: Dashboard, filter: DashboardFilter, stats: DashboardStats) => TrendPoint[];
  groupRows: (model: Dashboard, filter: DashboardFilter, stats: DashboardStats, dimension: GroupDimension) => GroupRow[];
  selectMarks: (model: Dashboard, filter: DashboardFilter) => number[];
  trendChart: (doc: Document, series: TrendSeries, onHover: (text: string | null, event?: MouseEvent) => void) => SVGElement;
  timelineChart: (doc: Document, rows: string[], marks: TimelineMark[], onHover: (text: string | null, event?: MouseEvent) => void) => SVGElement;
  metricsChart: (doc: Document, labels: string[], lines: { name: string; values: (number | null)[] }[], onHover: (text: string | null, event?: MouseEvent) => void) => SVGElement;
  markShape: (doc: Document, kind: string, cx: number, cy: number, size?: number) => SVGElement;
  uncontainedRing: (doc: Document, size?: number) => SVGElement;
  svgElement: (doc: Document, name: string, attributes?: Record<string, string | number>) => SVGElement;
  markLabels: Record<string, string>;
  armSection: (doc: Document, model: Dashboard, filter: DashboardFilter, lib: ArmSectionLib) => HTMLElement;
}

/**
 * The dashboard's page: draws every view for the filter in the URL fragment and redraws when
 * the fragment changes. Runs in the browser as its own source text (so it uses only its
 * arguments); every string from the store is set with textContent.
 */
export function dashboardPage(doc: Document, model: Dashboard, lib: PageLib): void {
  const root = doc.getElementById('dashboard')!;
  const FILTER_KEYS = ['case', 'category', 'tag', 'candidate', 'model', 'rev', 'arm', 'from', 'to'] as const;

  const el = (tag: string, attributes: Record<string, string> = {}, text?: string): HTMLElement => {
    const element = doc.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}%`);
  const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? '–' : v.toFixed(digits));
  // A git commit reads well by its first 12 characters, as git prints it.
  const short = (name: string) => (/^[0-9a-f]{40}$/.test(name) ? name.slice(0, 12) : name);
  const interval = (r: { low: number; high: number } | null) => (r ? `[${pct(r.low)}–${pct(r.high)}]` : '');
  const uncontainedText = (uncontained: number, runs: number) => `uncontained: ${uncontained} of ${runs} run${runs === 1 ? '' : 's'} (isolation: none)`;

  const readFilter = (): DashboardFilter => {
    const params = new URLSearchParams(doc.defaultView!.location.hash.replace(/^#/, ''));
    const filter: DashboardFilter = {};
    for (const key of FILTER_KEYS) {
      const value = params.get(key);
      if (value) filter[key] = value;
    }
    return filter;
  };
  const writeFilter = (filter: DashboardFilter) => {
    const params = new URLSearchParams();
    for (const key of FILTER_KEYS) if (filter[key] !== undefined) params.set(key, filter[key]!);
    doc.defaultView!.location.hash = params.toString();
  };

  const tooltip = el('div', { id: 'tooltip', role: 'tooltip' });
  const hover = (text: string | null, event?: MouseEvent) => {
    if (text === null || !event) {
      tooltip.style.display = 'none';
      return;
    }
    tooltip.textContent = text;
    tooltip.style.display = 'block';
    tooltip.style.left = `${event.pageX + 12}px`;
    tooltip.style.top = `${event.pageY + 12}px`;
  };

  if (model.runs === 0 && model.editPrediction.length === 0) {
    const empty = el('section', { id: 'empty' });
    empty.appendChild(el('h2', {}, 'No runs yet'));
    empty.appendChild(el('p', {}, 'The store has no runs. Make one with `evalflow run eval_sets` (or try `npm run demo`), then rebuild this page with `evalflow dashboard`; it is also rebuilt at the end of every batch.'));
    root.replaceChildren(empty);
    return;
  }

  const filterBar = (filter: DashboardFilter): HTMLElement => {
    const bar = el('form', { id: 'filters', class: 'filters' });
    const options: Record<string, string[]> = {
      case: model.cases.map((c) => c.id),
      category: [...new Set(model.cases.map((c) => c.category))].sort(),
      tag: [...new Set(model.cases.flatMap((c) => c.tags))].sort(),
      candidate: model.candidates,
      model: model.models,
      rev: model.revs,
      arm: model.arms.filter((a) => a !== '(none)'),
    };
    for (const [key, values] of Object.entries(options)) {
      const label = el('label', {}, `${key} `);
      const select = el('select', { id: `filter-${key}`, name: key }) as HTMLSelectElement;
      select.appendChild(el('option', { value: '' }, 'all'));
      for (const value of values) select.appendChild(el('option', { value }, value));
      select.value = filter[key as keyof DashboardFilter] ?? '';
      select.disabled = values.length === 0;
      select.addEventListener('change', () => writeFilter({ ...readFilter(), [key]: select.value || undefined }));
      label.appendChild(select);
      bar.appendChild(label);
    }
    for (const key of ['from', 'to'] as const) {
      const label = el('label', {}, `${key} `);
      const input = el('input', { id: `filter-${key}`, type: 'date', name: key }) as HTMLInputElement;
      input.value = filter[key] ?? '';
      input.addEventListener('change', () => writeFilter({ ...readFilter(), [key]: input.value || undefined }));
      label.appendChild(input);
      bar.appendChild(label);
    }
    const reset = el('button', { type: 'button', id: 'filter-reset' }, 'reset');
    reset.addEventListener('click', () => writeFilter({}));
    bar.appendChild(reset);
    return bar;
  };

  const kpiCards = (kpis: Kpis): HTMLElement => {
    const section = el('section', { id: 'kpis', class: 'kpis' });
    const { last, previous } = kpis;
    if (!last) {
      section.appendChild(el('p', {}, 'No eval batch matches the filter.'));
      return section;
    }
    section.appendChild(el('p', { class: 'kpi-batch' }, `last batch ${model.batches[last.batch]!.id}${previous ? `, change against ${model.batches[previous.batch]!.id}` : ''}`));
    // Said above the numbers, so an uncontained batch's pass rate is never read as a contained one's.
    if (last.uncontained > 0) section.appendChild(el('p', { id: 'uncontained-batch', class: 'uncontained-banner', role: 'note' }, `⚠ ${uncontainedText(last.uncontained, last.runs)} in this batch: their candidates ran outside a sandbox`));
    const card = (id: string, title: string, value: (k: BatchKpis) => number | null, show: (v: number | null, k: BatchKpis) => string, extra = '', showChange = show) => {
      const box = el('div', { class: 'kpi', 'data-kpi': id });
      box.appendChild(el('div', { class: 'kpi-title' }, title));
      box.appendChild(el('div', { class: 'value' }, show(value(last), last)));
      if (extra) box.appendChild(el('div', { class: 'interval' }, extra));
      const now = value(last);
      const before = previous ? value(previous) : null;
      const change = now === null || before === null ? 'no change to show' : `${now - before >= 0 ? '+' : '−'}${showChange(Math.abs(now - before), last)} vs previous`;
      box.appendChild(el('div', { class: 'change' }, change));
      section.appendChild(box);
    };
    card('pass-rate', 'pass rate', (k) => k.passRate?.rate ?? null, (v) => pct(v), interval(last.passRate));
    card('pass-hat-k', last.passHatK ? `pass^${last.passHatK.k}` : 'pass^k', (k) => k.passHatK?.value ?? null, (v) => num(v, 3));
    card('completed', 'completed runs (judged)', (k) => k.judged, (v, k) => (v === null ? '–' : `${v} of ${k.runs}`), '', (v) => String(v));
    card('infra-error', 'infra_error rate', (k) => k.infraErrorRate, (v) => pct(v));
    card('judge-failed', 'judge_failed rate', (k) => k.judgeFailedRate, (v) => pct(v));
    card('tokens', 'tokens', (k) => k.tokens, (v) => (v === null ? 'unknown' : Math.round(v).toLocaleString('en-US')));
    card('cost', 'cost (USD)', (k) => k.cost, (v) => (v === null ? 'unknown' : `$${v.toFixed(4)}`));
    return section;
  };

  const trendSection = (points: TrendPoint[]): HTMLElement => {
    const section = el('section', { id: 'trend' });
    section.appendChild(el('h2', {}, 'Pass rate per batch'));
    section.appendChild(el('p', { class: 'legend' }, 'line: pass rate, band: its 95% Wilson interval, dashed: mean overall (0–5, right), vertical: first batch of a new workflow_rev'));
    const series: TrendSeries = {
      labels: points.map((p) => model.batches[p.batch]!.id),
      rate: points.map((p) => p.passRate?.rate ?? null),
      low: points.map((p) => p.passRate?.low ?? null),
      high: points.map((p) => p.passRate?.high ?? null),
      mean: points.map((p) => p.meanOverall),
      newRev: points.map((p) => (p.newRev ? p.revs.map((r) => model.revs[r]!).join(', ') : null)),
    };
    section.appendChild(lib.trendChart(doc, series, hover));
    return section;
  };

  const timelineSection = (filter: DashboardFilter): HTMLElement => {
    const section = el('section', { id: 'timeline' });
    section.appendChild(el('h2', {}, 'Runs per case'));
    const legend = el('div', { class: 'legend marks-legend' });
    for (const kind of model.markKinds) {
      const item = el('span', { class: 'legend-item' });
      const svg = lib.svgElement(doc, 'svg', { width: 14, height: 14, viewBox: '-7 -7 14 14' });
      svg.appendChild(lib.markShape(doc, kind, 0, 0, 5));
      item.appendChild(svg);
      item.appendChild(doc.createTextNode(` ${lib.markLabels[kind] ?? kind}`));
      legend.appendChild(item);
    }
    if (model.timeline.uncontained.some(Boolean)) {
      const item = el('span', { class: 'legend-item' });
      const svg = lib.svgElement(doc, 'svg', { width: 18, height: 18, viewBox: '-9 -9 18 18' });
      svg.appendChild(lib.uncontainedRing(doc, 5));
      item.appendChild(svg);
      item.appendChild(doc.createTextNode(' uncontained (isolation: none)'));
      legend.appendChild(item);
    }
    section.appendChild(legend);
    const t = model.timeline;
    const picked = lib.selectMarks(model, filter);
    // One row per case and arm, so the arms of a case never draw on the same spot.
    const rowKey = (i: number) => `${t.case[i]}/${t.arm[i]}`;
    const rowList = [...new Map(picked.map((i) => [rowKey(i), i])).values()].sort((a, b) => t.case[a]! - t.case[b]! || t.arm[a]! - t.arm[b]!);
    const rowOf = new Map(rowList.map((i, r) => [rowKey(i), r]));
    const rowName = (i: number) => (model.arms[t.arm[i]!] === '(none)' ? model.cases[t.case[i]!]!.id : `${model.cases[t.case[i]!]!.id} · ${model.arms[t.arm[i]!]}`);
    const marks: TimelineMark[] = picked.map((i) => ({
      row: rowOf.get(rowKey(i))!,
      at: t.at[i]!,
      href: t.href[i]!,
      kind: model.markKinds[t.kind[i]!]!,
      runId: t.runId[i]!,
      uncontained: t.uncontained[i]!,
      detail: [
        t.runId[i],
        `status: ${model.markKinds[t.kind[i]!]}`,
        t.uncontained[i] ? 'isolation: none (uncontained)' : '',
        `rev: ${model.revs[t.rev[i]!]}`,
        model.arms[t.arm[i]!] === '(none)' ? '' : `arm: ${model.arms[t.arm[i]!]}`,
        `scores: overall ${num(t.overall[i])}, compliance ${num(t.compliance[i])}, execution ${num(t.executionQuality[i])}`,
        t.summary[i] ? `judge: ${t.summary[i]}` : '',
      ].filter(Boolean).join('\n'),
    }));
    if (marks.length === 0) section.appendChild(el('p', {}, 'No run matches the filter.'));
    else section.appendChild(lib.timelineChart(doc, rowList.map(rowName), marks, hover));
    section.appendChild(el('p', { class: 'note' }, `each case's latest ${t.perCase} runs are drawn; ${picked.length} marks shown`));
    return section;
  };

  const table = (id: string, title: string, headers: string[], rows: string[][]): HTMLElement => {
    const section = el('section', { id });
    section.appendChild(el('h2', {}, title));
    const tableEl = el('table');
    const head = el('tr');
    for (const h of headers) head.appendChild(el('th', {}, h));
    tableEl.appendChild(head);
    for (const row of rows) {
      const tr = el('tr');
      for (const cell of row) tr.appendChild(el('td', {}, cell));
      tableEl.appendChild(tr);
    }
    if (rows.length === 0) section.appendChild(el('p', {}, 'nothing matches the filter'));
    else section.appendChild(tableEl);
    return section;
  };
  const groupTable = (id: string, title: string, dimension: GroupDimension, names: string[], filter: DashboardFilter, extra?: (row: GroupRow) => string) => {
    const rows = lib.groupRows(model, filter, lib.stats, dimension);
    // A column of its own only where some run ran uncontained: contained views stay as they were.
    const uncontained = rows.some((r) => r.uncontained > 0);
    return table(
      id,
      title,
      [dimension, 'runs', 'judged', 'pass rate', 'interval', 'overall', 'compliance', 'execution', 'infra_error', 'judge_failed', ...(uncontained ? ['uncontained'] : []), ...(extra ? ['vs previous rev'] : [])],
      rows.map((r) => [
        short(names[r.key]!),
        String(r.runs),
        String(r.judged),
        pct(r.passRate?.rate),
        interval(r.passRate),
        num(r.meanOverall),
        num(r.meanCompliance),
        num(r.meanExecutionQuality),
        String(r.byStatus.infra_error ?? 0),
        String(r.byStatus.judge_failed ?? 0),
        ...(uncontained ? [r.uncontained > 0 ? `⚠ ${r.uncontained}` : '0'] : []),
        ...(extra ? [extra(r)] : []),
      ]),
    );
  };
  const revLabel = (row: GroupRow) => {
    const step = model.revSteps.find((s) => s.rev === model.revs[row.key]);
    if (!step) return '';
    const counts = Object.entries(step.labels).filter(([, n]) => n > 0).map(([label, n]) => `${n} ${label}`);
    return `vs ${short(step.previous)}: ${counts.join(', ')}`;
  };

  const suggestionsSection = (): HTMLElement => {
    const section = el('section', { id: 'suggestions' });
    section.appendChild(el('h2', {}, `Suggestions${model.suggestions.batchId ? ` of ${model.suggestions.batchId}` : ''}`));
    for (const group of model.suggestions.groups) {
      section.appendChild(el('h3', {}, `[${group.tag}] (${group.count})`));
      const list = el('ul');
      for (const item of group.items) list.appendChild(el('li', { title: item.runIds.join(', ') }, `${item.count > 1 ? `×${item.count} ` : ''}${item.text}`));
      section.appendChild(list);
    }
    return section;
  };

  const revStepsSection = (): HTMLElement => {
    const section = el('section', { id: 'rev-steps' });
    section.appendChild(el('h2', {}, 'Cases against the previous workflow_rev'));
    for (const step of model.revSteps) {
      const details = el('details');
      details.appendChild(el('summary', {}, `${short(step.previous)} → ${short(step.rev)}`));
      const list = el('ul');
      for (const c of step.cases) list.appendChild(el('li', { class: `label-${c.label}` }, `${c.caseId}: ${c.label}${c.difference === null ? '' : ` (${c.difference >= 0 ? '+' : ''}${(c.difference * 100).toFixed(1)} points)`}`));
      details.appendChild(list);
      section.appendChild(details);
      // Outside the folded list: the labels above it are approximate, whether or not it is open.
      for (const note of step.notes) section.appendChild(el('p', { class: 'method-note', role: 'note' }, `note: ${note}`));
    }
    return section;
  };

  const render = () => {
    const filter = readFilter();
    const parts: HTMLElement[] = [filterBar(filter)];
    // An A/B batch's answer comes first: the pooled numbers below mix its arms.
    if (model.abTest) parts.push(lib.armSection(doc, model, filter, lib));
    parts.push(kpiCards(lib.kpisOf(model, filter, lib.stats)), trendSection(lib.trendOf(model, filter, lib.stats)), timelineSection(filter));
    parts.push(groupTable('revs', 'Workflow revisions', 'rev', model.revs, filter, revLabel));
    if (model.revSteps.length > 0) parts.push(revStepsSection());
    parts.push(groupTable('candidates', 'Candidates', 'candidate', model.candidates, filter));
    parts.push(groupTable('models', 'Candidate models', 'model', model.models, filter));
    if (model.arms.some((a) => a !== '(none)')) parts.push(groupTable('arms', 'A/B arms', 'arm', model.arms, filter));
    parts.push(suggestionsSection());
    if (model.workflowUsage.items.length > 0) {
      const flags = (f: { yes: number; no: number; unknown: number }) => `${f.yes} yes, ${f.no} no${f.unknown ? `, ${f.unknown} unknown` : ''}`;
      parts.push(table('workflow-usage', `Workflow usage in ${model.workflowUsage.batchId}`, ['item', 'kind', 'runs', 'loaded', 'invoked'], model.workflowUsage.items.map((u) => [u.item, u.kind, String(u.runs), flags(u.loaded), flags(u.invoked)])));
    }
    if (model.editPrediction.length > 0) {
      const ep = model.editPrediction;
      const trend = el('section', { id: 'edit-prediction-trend' });
      trend.appendChild(el('h2', {}, 'Edit prediction per batch'));
      trend.appendChild(
        lib.metricsChart(doc, ep.map((e) => model.batches[e.batch]!.id), [
          { name: 'delta chrF / 100', values: ep.map((e) => (e.deltaChrF === null ? null : e.deltaChrF / 100)) },
          { name: 'exact-lines F1', values: ep.map((e) => e.exactLinesF1) },
          { name: 'cursor exact match', values: ep.map((e) => e.cursorExactMatch) },
        ], hover),
      );
      parts.push(trend);
      parts.push(
        table('edit-prediction', 'Edit prediction', ['batch', 'provider', 'predictions', 'delta chrF', 'exact-lines F1', 'cursor exact match'], model.editPrediction.map((ep) => [model.batches[ep.batch]!.id, ep.provider, String(ep.predictions), num(ep.deltaChrF, 3), num(ep.exactLinesF1, 3), pct(ep.cursorExactMatch)])),
      );
    }
    parts.push(tooltip);
    root.replaceChildren(...parts);
  };
  doc.defaultView!.addEventListener('hashchange', render);
  render();
}
