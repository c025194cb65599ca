import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ConfigError } from '../../errors.js';
import type { Store } from '../../store/index.js';
import type { Prices } from '../../summaries/prices.js';
import { buildDashboard } from '../buildDashboard.js';
import { renderDashboard } from '../renderDashboard.js';
import { batchRuns, runDetail, RunsQuerySchema, searchTranscript, transcriptPage, TranscriptQuerySchema } from './viewApi.js';
import { batchPageScript, runPageScript, viewShell } from './viewPages.js';

export interface ViewServerOptions {
  store: Store;
  prices: Prices;
  host: string;
  port: number;
  /** The Temporal Web UI, for a link from each run page; null when there is none. */
  temporalUi: { url: string; namespace: string } | null;
}

/**
 * `evalflow view`'s server: node:http over the store, read-only (GET and HEAD only; anything
 * else is 405 and no endpoint writes). Pages: `/` the dashboard built live, `/batches/ID` a
 * batch's runs, `/runs/ID` a run with its transcript; `/api/…` the JSON they read.
 */
export async function startViewServer(options: ViewServerOptions): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    handle(options, request, response).catch((err: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', `error: ${err instanceof Error ? err.message : String(err)}\n`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new ConfigError(`port ${options.port} on ${options.host} is in use; pick another with --port`) : err),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}` };
}

async function handle(options: ViewServerOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    return send(response, 405, 'text/plain', 'evalflow view is read-only: GET only\n');
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  const parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const query = Object.fromEntries(url.searchParams);
  const { store } = options;
  if (parts.length === 0) return send(response, 200, 'text/html', renderDashboard(await buildDashboard({ store, prices: options.prices })).replace('<main id="dashboard">', `<nav class="note">${await batchLinks(store)}</nav><main id="dashboard">`));
  const [first, id] = parts;
  if (first === 'batches' && id && parts.length === 2) {
    if (!(await store.getBatch(id))) return send(response, 404, 'text/plain', `no batch ${id}\n`);
    return send(response, 200, 'text/html', viewShell(`batch ${id}`, batchPageScript, { batchId: id }));
  }
  if (first === 'runs' && id && parts.length === 2) {
    if (!(await store.getRun(id))) return send(response, 404, 'text/plain', `no run ${id}\n`);
    return send(response, 200, 'text/html', viewShell(`run ${id}`, runPageScript, { runId: id, turnsPerPage: String(TranscriptQuerySchema.shape.turns.parse(query.turns)) }));
  }
  if (first === 'api') {
    const [, kind, key, what] = parts;
    if (kind === 'batches' && key && what === 'runs') {
      const page = await batchRuns(store, key, RunsQuerySchema.parse(query));
      return page ? json(response, page) : send(response, 404, 'application/json', '{"error":"no such batch"}');
    }
    if (kind === 'runs' && key && what === undefined) {
      const detail = await runDetail(store, key, options.temporalUi);
      return detail ? json(response, detail) : send(response, 404, 'application/json', '{"error":"no such run"}');
    }
    if (kind === 'runs' && key && what === 'transcript') return json(response, await transcriptPage(store, key, TranscriptQuerySchema.parse(query)));
    if (kind === 'runs' && key && what === 'search') return json(response, await searchTranscript(store, key, query.q ?? ''));
  }
  return send(response, 404, 'text/plain', 'not found\n');
}

/** The newest batches, as links (ids are escaped: they are text from the store). */
async function batchLinks(store: Store): Promise<string> {
  const batches = await store.listBatches({ limit: 20 });
  const escape = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return batches.length === 0 ? '' : `batches: ${batches.map((b) => `<a href="/batches/${escape(encodeURIComponent(b.batch_id))}">${escape(b.batch_id)}</a> (${escape(b.status)})`).join(' · ')}`;
}

function json(response: ServerResponse, body: unknown): void {
  send(response, 200, 'application/json', JSON.stringify(body));
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
