import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { BadRequestError, ConfigError, UsageError } from '../../errors.js';
import type { BatchProgress } from '../../run/progress.js';
import type { Batch, Store } from '../../store/index.js';
import { buildDashboard } from '../buildDashboard.js';
import { contentSecurityPolicy } from '../contentSecurity.js';
import { renderDashboard, scriptJson } from '../renderDashboard.js';
import { viewerLinks } from '../runLinks.js';
import { batchCases } from './batchCases.js';
import { batchLive } from './batchLive.js';
import { dashboardCache, type DashboardPage } from './dashboardCache.js';
import { followBatch, followRunning, LIVE_POLL_MS } from './viewLive.js';
import { renderMarkdown } from './markdownView.js';
import { runPageScript } from './viewRunPage.js';
import { batchRuns, runDetail, RunsQuerySchema, searchTranscript, transcriptPage, TranscriptQuerySchema } from './viewApi.js';
import { hostAllowed } from './hostCheck.js';
import { decodePathPart, parseQuery } from './viewRequest.js';
import { batchPageScript, escapeHtml, markdownPageScript, viewShell } from './viewPages.js';
import type { Prices } from '../../vocabulary/prices.js';

export interface ViewServerOptions {
  store: Store;
  prices: Prices;
  host: string;
  port: number;
  /** The Temporal Web UI, for a link from each run page; null when there is none. */
  temporalUi: { url: string; namespace: string } | null;
  /** A running batch's progress (its workflow's progress query); null when Temporal or a worker does not answer. */
  batchProgress?: (batchId: string) => Promise<BatchProgress | null>;
  /** Stages of a batch's running run workflows by run id (Temporal's EvalStage); null when Temporal does not answer. */
  runStages?: (batchId: string) => Promise<Record<string, string> | null>;
  /** Where compare-<batch>.md files are, for `/batches/ID/compare`; without it there is no such page. */
  summariesDir?: string;
}

/**
 * `evalflow view`'s server: node:http over the store, read-only (GET and HEAD only; anything
 * else is 405 and no endpoint writes). Pages: `/` the dashboard built live, `/batches/ID` a
 * batch's runs, `/runs/ID` a run with its transcript; `/api/…` the JSON they read.
 */
export async function startViewServer(options: ViewServerOptions): Promise<{ server: Server; url: string }> {
  const { store } = options;
  // The file's own policy (a meta tag naming its one script) gives way to the header's, which
  // send() computes over the whole page, the running section's script included.
  const dashboard = dashboardCache(
    () => store.changeMark(),
    async () => renderDashboard(await buildDashboard({ store, prices: options.prices, links: viewerLinks(options.summariesDir ?? null) })).replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?/, ''),
  );
  const server = createServer((request, response) => {
    handle(options, dashboard, request, response).catch((err: unknown) => {
      if (response.headersSent) return void response.end();
      if (err instanceof BadRequestError) return send(response, 400, 'text/plain', `bad request: ${err.message}\n`);
      // The details (SQL, stack) go to the terminal running the viewer, never to the page.
      process.stderr.write(`evalflow view: ${request.method} ${request.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      send(response, 500, 'text/plain', 'internal error (the terminal running evalflow view has the details)\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(listenError(err, options)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  // Built now, while the user opens the page: `/` is what a viewer is opened for. A failure here is
  // the first request's to report (it builds again).
  dashboard().catch(() => undefined);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}` };
}

/** Why the server could not listen, as one line naming the flag to change. */
function listenError(err: NodeJS.ErrnoException, { host, port }: ViewServerOptions): Error {
  if (err.code === 'EADDRINUSE') return new ConfigError(`port ${port} on ${host} is in use; pick another with --port`);
  if (err.code === 'EACCES') return new UsageError(`--port ${port}: this user may not listen on it (ports below 1024 need privileges); expected a port 1024..65535`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') {
    return new UsageError(`--host '${host}': expected an address of this machine (127.0.0.1, ::1, 0.0.0.0 or one of its interfaces), found one it cannot listen on (${err.code})`);
  }
  return err;
}

async function handle(options: ViewServerOptions, dashboard: () => Promise<DashboardPage>, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!hostAllowed(request.headers.host, options.host, request.socket.localPort)) {
    return send(response, 421, 'text/plain', `evalflow view answers only to localhost, 127.0.0.1, [::1] or ${options.host} on port ${request.socket.localPort}; this request named ${request.headers.host ?? 'no host'}\n`);
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'text/plain', 'evalflow view is read-only: GET only\n');
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  const parts = url.pathname.split('/').filter(Boolean).map(decodePathPart);
  const query = Object.fromEntries(url.searchParams);
  const { store } = options;
  if (parts.length === 0) {
    const batches = await store.listBatches({ limit: 20 });
    const running = await runningSection(batches, options.batchProgress);
    const links = `<nav class="note">${batchLinks(batches)}</nav>`;
    const page = await dashboard();
    if (page.state === 'building') return send(response, 200, 'text/html', buildingPage(page.sinceMs, `${links}${running}`));
    const stale = page.state === 'stale' ? `<p class="note" id="dashboard-stale">${STALE_NOTE}</p>` : '';
    return send(response, 200, 'text/html', page.html.replace('<main id="dashboard">', `${links}${stale}${running}<main id="dashboard">`));
  }
  const [first, id] = parts;
  if (first === 'batches' && id && parts.length === 2) {
    if (!(await store.getBatch(id))) return send(response, 404, 'text/plain', `no batch ${id}\n`);
    return send(response, 200, 'text/html', viewShell(`batch ${id}`, batchPageScript, { batchId: id, compareHref: viewerLinks(options.summariesDir ?? null).compare(id) ?? '', pollMs: String(LIVE_POLL_MS) }, [followBatch]));
  }
  if (first === 'batches' && id && parts.length === 3 && parts[2] === 'compare') {
    // A batch id never holds a path separator: one that does names no report of this folder.
    const report = options.summariesDir && !/[/\\]/.test(id) ? await readFile(join(options.summariesDir, `compare-${id}.md`), 'utf8').catch(() => null) : null;
    if (report === null) return send(response, 404, 'text/plain', `no comparison report of batch ${id}\n`);
    return send(response, 200, 'text/html', viewShell(`comparison of ${id}`, markdownPageScript, { markdown: report, batchId: id }, [renderMarkdown]));
  }
  if (first === 'runs' && id && parts.length === 2) {
    if (!(await store.getRun(id))) return send(response, 404, 'text/plain', `no run ${id}\n`);
    return send(response, 200, 'text/html', viewShell(`run ${id}`, runPageScript, { runId: id, turnsPerPage: String(parseQuery(TranscriptQuerySchema, query).turns) }, [renderMarkdown]));
  }
  if (first === 'api') {
    const [, kind, key, what] = parts;
    if (kind === 'batches' && key && what === 'runs') {
      const page = await batchRuns(store, key, parseQuery(RunsQuerySchema, query));
      return page ? json(response, page) : send(response, 404, 'application/json', '{"error":"no such batch"}');
    }
    if (kind === 'batches' && key && what === 'cases') {
      const grouped = await batchCases(store, key);
      return grouped ? json(response, grouped) : send(response, 404, 'application/json', '{"error":"no such batch"}');
    }
    if (kind === 'batches' && key && what === 'live') {
      const live = await batchLive(store, key, { ...(options.batchProgress ? { progress: options.batchProgress } : {}), ...(options.runStages ? { stages: options.runStages } : {}) });
      return live ? json(response, live) : send(response, 404, 'application/json', '{"error":"no such batch"}');
    }
    if (kind === 'batches' && key && what === 'progress') return json(response, (await options.batchProgress?.(key)) ?? null);
    if (kind === 'runs' && key && what === undefined) {
      const detail = await runDetail(store, key, options.temporalUi);
      return detail ? json(response, detail) : send(response, 404, 'application/json', '{"error":"no such run"}');
    }
    if (kind === 'runs' && key && what === 'transcript') return json(response, await transcriptPage(store, key, parseQuery(TranscriptQuerySchema, query)));
    if (kind === 'runs' && key && what === 'search') return json(response, await searchTranscript(store, key, query.q ?? ''));
  }
  return send(response, 404, 'text/plain', 'not found\n');
}

const STALE_NOTE = 'runs were written since the counts below were built (the time in the header); they are being counted now: reload in a moment to see them';

/**
 * What `/` answers while the viewer's first build of the dashboard runs (minutes at 100,000
 * runs): the live parts, and a reload every few seconds until the dashboard is there.
 */
function buildingPage(sinceMs: number, live: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>evalflow dashboard</title></head>
<body><header><h1>evalflow dashboard</h1><p class="generated" id="dashboard-building">the dashboard is being built from the store's history (${Math.round(sinceMs / 1000)} s so far); this page reloads itself until it is there</p></header>${live}</body></html>
`;
}

/** The newest batches, as links (ids are escaped: they are text from the store). */
function batchLinks(batches: readonly Batch[]): string {
  return batches.length === 0 ? '' : `batches: ${batches.map((b) => `<a href="/batches/${escapeHtml(encodeURIComponent(b.batch_id))}">${escapeHtml(b.batch_id)}</a> (${escapeHtml(b.status)})`).join(' · ')}`;
}

/**
 * The batches still running, with their progress from the workflow when it answers, else the
 * store's counts; a small script (allowed by its hash, like the page's own) keeps each line
 * current by polling `/api/batches/ID/live`, so the page never reloads.
 */
async function runningSection(batches: readonly Batch[], progressOf: ViewServerOptions['batchProgress']): Promise<string> {
  const running = batches.filter((b) => b.status === 'running' || b.status === 'pending');
  if (running.length === 0) return '';
  const lines = await Promise.all(
    running.map(async (b, i) => {
      const progress = (await progressOf?.(b.batch_id).catch(() => null)) ?? null;
      const state = progress
        ? `${progress.finished} of ${progress.total} finished, ${progress.running.length} running${progress.running.length ? ` (${progress.running.slice(0, 5).join(', ')}${progress.running.length > 5 ? ', …' : ''})` : ''}`
        : `${b.counts.finished ?? 0} finished (the store's count; Temporal did not answer)`;
      return `<li data-batch="${escapeHtml(b.batch_id)}"><a href="/batches/${escapeHtml(encodeURIComponent(b.batch_id))}">${escapeHtml(b.batch_id)}</a>: <span id="running-${i}">${escapeHtml(state)}</span></li>`;
    }),
  );
  const input = { pollMs: LIVE_POLL_MS, lines: Object.fromEntries(running.map((b, i) => [`running-${i}`, b.batch_id])) };
  const script = `"use strict";\nfunction __name(target) { return target; }\n${followBatch.toString()}\n(${followRunning.toString()})(document, JSON.parse(document.getElementById("running-input").textContent));`;
  return `<section id="running"><h2>Running now</h2><ul>${lines.join('')}</ul><p class="note">each line follows its batch live; a batch's page shows its runs as they move</p><script type="application/json" id="running-input">${scriptJson(input)}</script><script>\n${script}\n</script></section>`;
}

function json(response: ServerResponse, body: unknown): void {
  send(response, 200, 'application/json', JSON.stringify(body));
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'Content-Type': `${type}; charset=utf-8`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': type === 'text/html' ? contentSecurityPolicy(body, { served: true }) : "default-src 'none'; frame-ancestors 'none'",
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
