/// <reference lib="dom" />
import { DASHBOARD_CSS } from '../page/dashboardCss.js';
import { scriptJson } from '../renderDashboard.js';

/**
 * The viewer's batch and run pages: a shell with one inline script that reads the JSON
 * endpoints. Each script is a function's own source text, run with its arguments only; every
 * string from the store is set with textContent.
 */

export function viewShell(title: string, script: (doc: Document, input: Record<string, string>) => void, input: Record<string, string>): string {
  const source = `"use strict";\nfunction __name(target) { return target; }\n(${script.toString()})(document, JSON.parse(document.getElementById("page-input").textContent));`;
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
.review { white-space: pre-wrap; background: #f6f8fa; padding: 12px; border-radius: 6px; font-size: 0.85rem; }
td.uncontained { color: #953800; font-weight: 600; }
.pager button { margin-right: 6px; } dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 0.9rem; } dd { margin: 0; } header a { color: inherit; text-decoration: none; }
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The batch page: its runs as a table, sortable by column, filterable by status and text, paged. */
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
  root.append(el('h2', {}, input.batchId!), banner, controls, table, pager);
  const columns = ['run_id', 'case_id', 'status', 'overall', 'finished_at', 'isolation'];
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
      tr.appendChild(el('td', {}, run.result ? `${run.status} (${run.result})` : String(run.status)));
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
}

/** The run page: score, hard requirements, review.md, anomalies, snapshot files, Temporal link, and the transcript viewer. */
export function runPageScript(doc: Document, input: Record<string, string>): void {
  const root = doc.getElementById('page')!;
  const runId = input.runId!;
  const api = `/api/runs/${encodeURIComponent(runId)}`;
  const el = (tag: string, attributes: Record<string, string> = {}, text?: string) => {
    const element = doc.createElement(tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text !== undefined) element.textContent = text;
    return element;
  };
  const section = (title: string, id: string) => {
    const s = el('section', { id });
    s.appendChild(el('h2', {}, title));
    root.appendChild(s);
    return s;
  };
  const transcript = el('div', { id: 'transcript' });
  let pageIndex = 0;
  let hits: { turn: number; seq: number }[] = [];
  const turnsPerPage = Number(input.turnsPerPage ?? '10');

  const showEvent = (event: { turn: number; seq: number; role: string; content: string; tool?: unknown; ts: string }) => {
    const box = el('div', { class: `event role-${event.role.replace(/\./g, '-')}`, id: `event-${event.turn}-${event.seq}`, 'data-role': event.role });
    const folded = event.role === 'candidate.thinking' || event.role.startsWith('candidate.tool_call');
    if (folded) {
      const details = el('details', { class: event.role === 'candidate.thinking' ? 'thinking' : 'tool-call' });
      details.appendChild(el('summary', {}, `${event.role}: ${event.content.split('\n')[0]!.slice(0, 160)}`));
      details.appendChild(el('div', { class: 'content' }, event.content));
      if (event.tool) details.appendChild(el('pre', { class: 'full' }, JSON.stringify(event, null, 2)));
      box.appendChild(details);
    } else {
      box.appendChild(el('span', { class: 'role' }, event.role));
      box.appendChild(el('div', { class: 'content' }, event.content));
    }
    if (hits.some((h) => h.turn === event.turn && h.seq === event.seq)) box.classList.add('hit');
    return box;
  };
  const loadPage = async (index: number, focus?: string) => {
    pageIndex = index;
    const page = (await (await fetch(`${api}/transcript?page=${index}&turns=${turnsPerPage}`)).json()) as { page: number; pages: number; turns: { turn: number; events: Parameters<typeof showEvent>[0][] }[] };
    const parts: HTMLElement[] = [];
    for (const { turn, events } of page.turns) {
      const t = el('section', { class: 'turn', id: `turn-${turn}` });
      t.appendChild(el('h3', {}, `turn ${turn}`));
      for (const event of events) t.appendChild(showEvent(event));
      parts.push(t);
    }
    const pager = el('div', { class: 'pager' });
    for (let p = 0; p < page.pages; p++) {
      const b = el('button', { type: 'button' }, `turns page ${p + 1}`) as HTMLButtonElement;
      b.disabled = p === page.page;
      b.addEventListener('click', () => void loadPage(p));
      pager.appendChild(b);
    }
    transcript.replaceChildren(pager, ...parts);
    if (focus) {
      const target = doc.getElementById(focus);
      target?.querySelector('details')?.setAttribute('open', '');
      target?.scrollIntoView({ block: 'center' });
    }
  };
  const jump = (turn: number, seq: number, turns: number[]) => {
    const index = Math.floor(Math.max(0, turns.indexOf(turn)) / turnsPerPage);
    void loadPage(index, `event-${turn}-${seq}`);
  };

  void (async () => {
    const detail = (await (await fetch(api)).json()) as {
      run: Record<string, unknown> & { anomalies: unknown[] };
      score: null | { result: string | null; compliance: number | null; execution_quality: number | null; overall: number | null; summary: string; hard_requirements: { item: string; met: boolean | null; evidence?: string }[]; suggestions: string[] };
      review: string | null;
      snapshotFiles: string[];
      temporalUrl: string | null;
      turns: number[];
    };
    const facts = section('Run', 'facts');
    if (detail.run.isolation === 'none') facts.appendChild(el('p', { id: 'run-uncontained', class: 'uncontained-banner', role: 'note' }, '⚠ uncontained (isolation: none): the candidate ran outside a sandbox'));
    const list = el('dl');
    for (const key of ['run_id', 'case_id', 'candidate', 'isolation', 'status', 'result', 'workflow_rev', 'arm', 'started_at', 'finished_at', 'error']) {
      list.append(el('dt', {}, key), el('dd', { 'data-field': key }, detail.run[key] === null || detail.run[key] === undefined ? '–' : String(detail.run[key])));
    }
    facts.appendChild(list);
    if (detail.temporalUrl) facts.appendChild(el('a', { href: detail.temporalUrl, id: 'temporal-link', rel: 'noreferrer' }, 'this run in the Temporal Web UI'));
    const score = section('Score', 'score');
    if (!detail.score) score.appendChild(el('p', {}, 'not judged'));
    else {
      const s = detail.score;
      score.appendChild(el('p', { class: 'scores' }, `result ${s.result ?? '–'} · overall ${s.overall ?? '–'} · compliance ${s.compliance ?? '–'} · execution ${s.execution_quality ?? '–'}`));
      score.appendChild(el('p', { class: 'summary' }, s.summary));
      const hard = el('ul', { id: 'hard-requirements' });
      for (const item of s.hard_requirements) {
        const li = el('li', {}, `${item.met === true ? '✓ met' : item.met === false ? '✗ not met' : '? not assessed'}: ${item.item}`);
        if (item.evidence) {
          const cited = /turn\s+(\d+)(?:\D+seq\s+(\d+))?/i.exec(item.evidence);
          const evidence = el('a', { href: '#', class: 'evidence' }, ` — ${item.evidence}`);
          if (cited) evidence.addEventListener('click', (e) => (e.preventDefault(), jump(Number(cited[1]), Number(cited[2] ?? 0), detail.turns)));
          li.appendChild(evidence);
        }
        hard.appendChild(li);
      }
      score.appendChild(hard);
    }
    const anomalies = section('Anomalies', 'anomalies');
    anomalies.appendChild(el('pre', {}, detail.run.anomalies.length === 0 ? 'none' : JSON.stringify(detail.run.anomalies, null, 2)));
    const review = section('review.md', 'review');
    review.appendChild(el('div', { class: 'review' }, detail.review ?? 'no review.md in the run directory'));
    const snapshot = section('Workflow snapshot', 'snapshot');
    const files = el('ul');
    for (const file of detail.snapshotFiles) files.appendChild(el('li', {}, file));
    snapshot.appendChild(detail.snapshotFiles.length === 0 ? el('p', {}, 'no snapshot files') : files);
    const viewer = section('Transcript', 'transcript-viewer');
    const search = el('input', { id: 'transcript-search', type: 'search', placeholder: 'search the transcript' }) as HTMLInputElement;
    const results = el('ul', { id: 'search-results' });
    search.addEventListener('change', async () => {
      const found = (await (await fetch(`${api}/search?q=${encodeURIComponent(search.value)}`)).json()) as { turn: number; seq: number; role: string; snippet: string }[];
      hits = found;
      results.replaceChildren(...found.map((f) => {
        const li = el('li', { 'data-turn': String(f.turn) });
        const a = el('a', { href: '#' }, `turn ${f.turn}, ${f.role}: ${f.snippet}`);
        a.addEventListener('click', (e) => (e.preventDefault(), jump(f.turn, f.seq, detail.turns)));
        li.appendChild(a);
        return li;
      }));
      if (found.length === 0) results.appendChild(el('li', {}, 'no match'));
      await loadPage(pageIndex);
    });
    viewer.append(search, results, transcript);
    await loadPage(0);
  })();
}
