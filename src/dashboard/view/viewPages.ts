/// <reference lib="dom" />
import { DASHBOARD_CSS } from '../page/dashboardCss.js';
import { scriptJson } from '../renderDashboard.js';
import type { followBatch as FollowBatch } from './viewLive.js';

/**
 * The viewer's batch and run pages: a shell with one inline script that reads the JSON
 * endpoints. Each script is a function's own source text, run with its arguments only; every
 * string from the store is set with textContent.
 */

/** A page: `script` runs with the document and `input`; `helpers` are functions it may call by name (their own source text, before it). */
export function viewShell(title: string, script: (doc: Document, input: Record<string, string>) => void, input: Record<string, string>, helpers: readonly ((...args: never[]) => unknown)[] = []): string {
  const source = `"use strict";\nfunction __name(target) { return target; }\n${helpers.map((f) => f.toString()).join('\n')}\n(${script.toString()})(document, JSON.parse(document.getElementById("page-input").textContent));`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${DASHBOARD_CSS}${VIEW_CSS}</style></head>
<body><header><h1><a href="/">evalflow</a> · ${escapeHtml(title)}</h1></header><main id="page"></main>
<script type="application/json" id="page-input">${scriptJson(input)}</script>
<script>
${source}
</script></body></html>
`;
}

const VIEW_CSS = `
.turn { border-left: 3px solid #d0d7de; padding: 4px 12px; margin: 12px 0; }
.event { margin: 6px 0; padding: 6px 8px; border-radius: 4px; white-space: pre-wrap; font-size: 0.85rem; }
.role-examiner { background: #ddf4ff; } .role-candidate { background: #dafbe1; } .role-system { background: #fff8c5; }
.role-candidate-thinking, .role-candidate-tool_call-started, .role-candidate-tool_call-completed { background: #f6f8fa; }
.event .role { font-weight: 600; font-size: 0.75rem; color: #57606a; display: block; }
.event.hit { outline: 2px solid #bf8700; } pre.full { background: #fff; border: 1px solid #d0d7de; padding: 6px; overflow: auto; }
.review, .markdown-page { background: #f6f8fa; padding: 4px 12px; border-radius: 6px; font-size: 0.9rem; } .markdown pre { background: #fff; border: 1px solid #d0d7de; padding: 6px; overflow: auto; } .markdown blockquote { border-left: 3px solid #d0d7de; margin: 0; padding-left: 10px; color: #57606a; }
.event.cited { outline: 2px solid #0969da; } .case-runs a { margin-right: 8px; white-space: nowrap; } nav.related a { margin-right: 10px; }
td.uncontained { color: #953800; font-weight: 600; }
.pager button { margin-right: 6px; } dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 0.9rem; } dd { margin: 0; } header a { color: inherit; text-decoration: none; }
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The batch page: its runs grouped by case with the arms side by side (each run a link), then
 * every run as a table, sortable by column, filterable by status and text, paged. While the
 * batch runs, its progress line and each run's state follow it live (needs `followBatch` beside it).
 */
export function batchPageScript(doc: Document, input: Record<string, string>): void {
  const root = doc.getElementById('page')!;
  const state = { offset: 0, limit: 50, sort: 'run_id', order: 'asc', status: '', q: '' };
  const el = (tag: string, attributes: Record<string, string> = {}, text?: string) => {
    const element = doc.createElement(tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const controls = el('form', { class: 'filters' });
  const status = el('input', { id: 'runs-status', placeholder: 'status or result' }) as HTMLInputElement;
  const q = el('input', { id: 'runs-q', placeholder: 'run or case id contains' }) as HTMLInputElement;
  controls.append(status, q);
  const table = el('table', { id: 'runs' });
  const pager = el('div', { class: 'pager' });
  const banner = el('p', { id: 'batch-uncontained', class: 'uncontained-banner', role: 'note', hidden: '' });
  const byCase = el('section', { id: 'by-case' });
  const progress = el('p', { id: 'batch-progress', role: 'status' });
  root.append(el('h2', {}, input.batchId!), progress, banner, byCase, el('h2', {}, 'All runs'), controls, table, pager);
  const marks: Record<string, string> = { pass: '✓ pass', fail: '✗ fail' };
  // Each run's stage while it runs, from the live poll; the store's status otherwise.
  let stages = new Map<string, string>();
  const stateText = (runId: string, status: string, result: string | null) => (result ? `${status} (${result})` : stages.get(runId) ? `${status} · ${stages.get(runId)}` : status);
  const grid = el('table', { id: 'case-arms' });
  const drawCases = async () => {
    const grouped = (await (await fetch(`/api/batches/${encodeURIComponent(input.batchId!)}/cases`)).json()) as { arms: (string | null)[]; cases: { case_id: string; runs: { run_id: string; attempt_index: number | null; status: string; result: string | null }[][] }[] };
    const head = el('tr');
    head.appendChild(el('th', {}, 'case'));
    for (const arm of grouped.arms) head.appendChild(el('th', { 'data-arm': arm ?? '' }, arm ?? 'runs'));
    grid.replaceChildren(head);
    for (const row of grouped.cases) {
      const tr = el('tr', { 'data-case': row.case_id });
      tr.appendChild(el('td', {}, row.case_id));
      row.runs.forEach((runs, i) => {
        const td = el('td', { class: 'case-runs', 'data-arm': grouped.arms[i] ?? '' });
        for (const run of runs) td.appendChild(el('a', { href: `/runs/${encodeURIComponent(run.run_id)}`, 'data-run': run.run_id, title: run.run_id }, `${run.attempt_index ? `#${run.attempt_index} ` : ''}${run.result ? (marks[run.result] ?? run.result) : stateText(run.run_id, run.status, null)}`));
        if (runs.length === 0) td.textContent = '–';
        tr.appendChild(td);
      });
      grid.appendChild(tr);
    }
    return grouped;
  };
  void (async () => {
    const grouped = await drawCases();
    byCase.appendChild(el('h2', {}, grouped.arms.length > 1 ? 'By case, arms side by side' : 'By case'));
    const compare = input.compareHref;
    if (compare) {
      const p = el('p');
      p.appendChild(el('a', { href: compare, id: 'compare-link' }, 'the comparison report of this batch'));
      byCase.appendChild(p);
    }
    byCase.appendChild(grid);
  })();
  const columns = ['run_id', 'case_id', 'arm', 'status', 'overall', 'finished_at', 'isolation'];
  const load = async () => {
    const params = new URLSearchParams(Object.entries(state).map(([k, v]) => [k, String(v)]).filter(([, v]) => v !== ''));
    const response = await fetch(`/api/batches/${encodeURIComponent(input.batchId!)}/runs?${params}`);
    const page = (await response.json()) as { total: number; uncontained: number; runs: Record<string, string | number | null>[] };
    banner.hidden = page.uncontained === 0;
    banner.textContent = `⚠ uncontained: ${page.uncontained} run${page.uncontained === 1 ? '' : 's'} of this batch (isolation: none): their candidates ran outside a sandbox`;
    const head = el('tr');
    for (const column of columns) {
      const th = el('th', { class: 'sortable', 'data-sort': column }, `${column}${state.sort === column ? (state.order === 'asc' ? ' ▲' : ' ▼') : ''}`);
      th.addEventListener('click', () => {
        state.order = state.sort === column && state.order === 'asc' ? 'desc' : 'asc';
        state.sort = column;
        void load();
      });
      head.appendChild(th);
    }
    table.replaceChildren(head);
    for (const run of page.runs) {
      const tr = el('tr');
      const link = el('a', { href: `/runs/${encodeURIComponent(String(run.run_id))}` }, String(run.run_id));
      const first = el('td');
      first.appendChild(link);
      tr.appendChild(first);
      tr.appendChild(el('td', {}, String(run.case_id)));
      tr.appendChild(el('td', {}, run.arm === null ? '–' : String(run.arm)));
      tr.appendChild(el('td', { 'data-state': String(run.run_id) }, stateText(String(run.run_id), String(run.status), run.result === null ? null : String(run.result))));
      tr.appendChild(el('td', {}, run.overall === null ? '–' : String(run.overall)));
      tr.appendChild(el('td', {}, run.finished_at === null ? '–' : String(run.finished_at)));
      tr.appendChild(el('td', run.isolation === 'none' ? { class: 'uncontained', 'data-uncontained': 'true' } : {}, run.isolation === 'none' ? '⚠ none (uncontained)' : String(run.isolation)));
      table.appendChild(tr);
    }
    const prev = el('button', { type: 'button' }, 'previous') as HTMLButtonElement;
    const next = el('button', { type: 'button' }, 'next') as HTMLButtonElement;
    prev.disabled = state.offset === 0;
    next.disabled = state.offset + state.limit >= page.total;
    prev.addEventListener('click', () => ((state.offset = Math.max(0, state.offset - state.limit)), void load()));
    next.addEventListener('click', () => ((state.offset += state.limit), void load()));
    pager.replaceChildren(prev, next, el('span', { id: 'runs-count' }, `${page.total === 0 ? 0 : state.offset + 1}–${Math.min(page.total, state.offset + state.limit)} of ${page.total}`));
  };
  for (const [input, key] of [[status, 'status'], [q, 'q']] as const) {
    input.addEventListener('input', () => {
      state[key] = input.value;
      state.offset = 0;
      void load();
    });
  }
  void load();
  const followBatch = (globalThis as unknown as { followBatch: typeof FollowBatch }).followBatch;
  followBatch(doc, input.batchId!, progress, Number(input.pollMs), (runs) => {
    stages = new Map([...runs].flatMap(([runId, r]) => (r.stage ? [[runId, r.stage]] : [])));
    void drawCases();
    void load();
  });
}


/** A Markdown report (compare-<batch>.md) as a page, with a link back to its batch. Needs `renderMarkdown` beside it. */
export function markdownPageScript(doc: Document, input: Record<string, string>): void {
  const renderMarkdown = (globalThis as unknown as { renderMarkdown: (doc: Document, text: string) => HTMLElement }).renderMarkdown;
  const root = doc.getElementById('page')!;
  const back = doc.createElement('a');
  back.setAttribute('href', `/batches/${encodeURIComponent(input.batchId!)}`);
  back.id = 'batch-link';
  back.textContent = `batch ${input.batchId}`;
  const body = renderMarkdown(doc, input.markdown!);
  body.classList.add('markdown-page');
  root.append(back, body);
}
