/// <reference lib="dom" />

/**
 * The run page: links to its batch, the same case's other arms and attempts and the runs
 * before and after it; score, hard requirements (evidence opens the cited event), review.md as
 * Markdown, anomalies, snapshot files, the Temporal link, and the transcript viewer. Needs
 * `renderMarkdown` beside it on the page (viewShell's helpers).
 */
export function runPageScript(doc: Document, input: Record<string, string>): void {
  const root = doc.getElementById('page')!;
  const renderMarkdown = (globalThis as unknown as { renderMarkdown: (doc: Document, text: string) => HTMLElement }).renderMarkdown;
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
  // The event evidence cites: `[Turn 3][candidate.tool_call.completed] shell: go test → exit=0` (or `turn 3 seq 2`).
  type Cited = { turn: number; seq: number | null; role: string | null; text: string };
  const citedEvent = (evidence: string): Cited | null => {
    const match = /turn\s+(\d+)\]?(?:\D+?seq\s+(\d+))?(?:\s*\[([a-z_.]+)\])?\s*(.*)/i.exec(evidence);
    return match ? { turn: Number(match[1]), seq: match[2] === undefined ? null : Number(match[2]), role: match[3] ?? null, text: match[4] ?? '' } : null;
  };
  // Of the cited turn's events, the one the evidence names: by seq, else its role and the most words in common.
  const findCited = (cited: Cited): HTMLElement | null => {
    const turn = doc.getElementById(`turn-${cited.turn}`);
    if (!turn) return null;
    if (cited.seq !== null) return doc.getElementById(`event-${cited.turn}-${cited.seq}`);
    const events = [...turn.querySelectorAll<HTMLElement>('.event')].filter((e) => cited.role === null || e.dataset.role === cited.role);
    const words = cited.text.toLowerCase().split(/[^a-z0-9_./-]+/).filter((w) => w.length > 2);
    let best: HTMLElement | null = null;
    let bestScore = -1;
    for (const event of events) {
      const content = (event.textContent ?? '').toLowerCase();
      const score = words.filter((w) => content.includes(w)).length;
      if (score > bestScore) [best, bestScore] = [event, score];
    }
    return best ?? turn;
  };
  const loadPage = async (index: number, focus?: string | Cited) => {
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
      const target = typeof focus === 'string' ? doc.getElementById(focus) : findCited(focus);
      doc.querySelectorAll('.event.cited').forEach((e) => e.classList.remove('cited'));
      target?.classList.add('cited');
      target?.querySelector('details')?.setAttribute('open', '');
      target?.scrollIntoView({ block: 'center' });
    }
  };
  const jump = (turn: number, target: string | Cited, turns: number[]) => {
    const index = Math.floor(Math.max(0, turns.indexOf(turn)) / turnsPerPage);
    void loadPage(index, target);
  };

  void (async () => {
    const detail = (await (await fetch(api)).json()) as {
      run: Record<string, unknown> & { anomalies: unknown[] };
      score: null | { result: string | null; compliance: number | null; execution_quality: number | null; overall: number | null; summary: string; hard_requirements: { item: string; met: boolean | null; evidence?: string }[]; suggestions: string[] };
      review: string | null;
      snapshotFiles: string[];
      temporalUrl: string | null;
      hosts: { attempt: number; host_id: string; claimed_at: string }[];
      turns: number[];
      related: { case: { run_id: string; arm: string | null; attempt_index: number | null; status: string; result: string | null }[]; previous: string | null; next: string | null };
    };
    const facts = section('Run', 'facts');
    if (detail.run.isolation === 'none') facts.appendChild(el('p', { id: 'run-uncontained', class: 'uncontained-banner', role: 'note' }, '⚠ uncontained (isolation: none): the candidate ran outside a sandbox'));
    const list = el('dl');
    for (const key of ['run_id', 'case_id', 'candidate', 'isolation', 'status', 'result', 'workflow_rev', 'arm', 'started_at', 'finished_at', 'error']) {
      list.append(el('dt', {}, key), el('dd', { 'data-field': key }, detail.run[key] === null || detail.run[key] === undefined ? '–' : String(detail.run[key])));
    }
    // Which host ran each attempt: a run restarts from prepare on another host when its own is lost.
    const hosts = detail.hosts.map((h) => (detail.hosts.length > 1 ? `${h.host_id} (attempt ${h.attempt}, from ${h.claimed_at})` : `${h.host_id} (from ${h.claimed_at})`));
    list.append(el('dt', {}, 'host'), el('dd', { 'data-field': 'host', id: 'run-hosts' }, hosts.length === 0 ? '– (no host recorded)' : hosts.join(', ')));
    facts.appendChild(list);
    const runLink = (runId: string, text: string, attributes: Record<string, string> = {}) => el('a', { href: `/runs/${encodeURIComponent(runId)}`, ...attributes }, text);
    const nav = el('nav', { class: 'related', id: 'run-links' });
    const batchId = detail.run.batch_id as string | null;
    if (batchId) nav.appendChild(el('a', { href: `/batches/${encodeURIComponent(batchId)}`, id: 'batch-link' }, `batch ${batchId}`));
    if (detail.related.previous) nav.appendChild(runLink(detail.related.previous, '← previous run', { id: 'previous-run', rel: 'prev' }));
    if (detail.related.next) nav.appendChild(runLink(detail.related.next, 'next run →', { id: 'next-run', rel: 'next' }));
    facts.appendChild(nav);
    if (detail.related.case.length > 0) {
      const same = el('ul', { id: 'same-case' });
      for (const other of detail.related.case) {
        const li = el('li');
        li.appendChild(runLink(other.run_id, other.run_id));
        li.appendChild(doc.createTextNode(` arm ${other.arm ?? '–'}, attempt ${other.attempt_index ?? 1}: ${other.result ?? other.status}`));
        same.appendChild(li);
      }
      facts.append(el('h3', {}, 'The same case in this batch (other arms and attempts)'), same);
    }
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
          const cited = citedEvent(item.evidence);
          const evidence = el('a', { href: '#', class: 'evidence' }, ` — ${item.evidence}`);
          if (cited) evidence.addEventListener('click', (e) => (e.preventDefault(), jump(cited.turn, cited, detail.turns)));
          li.appendChild(evidence);
        }
        hard.appendChild(li);
      }
      score.appendChild(hard);
    }
    const anomalies = section('Anomalies', 'anomalies');
    anomalies.appendChild(el('pre', {}, detail.run.anomalies.length === 0 ? 'none' : JSON.stringify(detail.run.anomalies, null, 2)));
    const review = section('review.md', 'review');
    const reviewBox = el('div', { class: 'review' });
    reviewBox.appendChild(detail.review === null ? el('p', {}, 'no review.md in the run directory') : renderMarkdown(doc, detail.review));
    review.appendChild(reviewBox);
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
        a.addEventListener('click', (e) => (e.preventDefault(), jump(f.turn, `event-${f.turn}-${f.seq}`, detail.turns)));
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
