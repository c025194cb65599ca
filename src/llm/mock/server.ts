import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FormatError } from '../../errors.js';
import { openAiChatDialect } from './openAiChat.js';
import type { MockDialect, MockReply, MockRequest, MockScript } from './types.js';

export interface MockServerOptions {
  script: MockScript;
  /** Extra wire dialects (Anthropic Messages, Responses, ...); OpenAI chat is always served. */
  dialects?: MockDialect[];
  port?: number;
  host?: string;
}

export interface MockServer {
  /** Base URL ending in `/v1`, for OpenAI-style clients. */
  url: string;
  /** Base URL without `/v1` (Anthropic-style clients append `/v1/messages` themselves). */
  origin: string;
  /** Every request served, in order, for assertions. */
  requests: MockRequest[];
  /** Requests the server could not read or answer, with the reason (a client or script bug). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * evalflow's own scripted model server, on loopback only. It is the only fake in the test
 * suite and what the offline demo talks to; every reply it produces comes from a script.
 */
export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const dialects = [openAiChatDialect, ...(options.dialects ?? [])];
  const requests: MockRequest[] = [];
  const errors: string[] = [];
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      const message = `mock server: ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`;
      errors.push(message);
      // A request we cannot read is the client's problem (400, not retried); anything else is ours.
      const unreadable = err instanceof FormatError;
      if (!res.headersSent) res.writeHead(unreadable ? 400 : 500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message, type: unreadable ? 'invalid_request_error' : 'server_error' } }));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    if (method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock', object: 'model', owned_by: 'evalflow-mock' }] }));
      return;
    }
    const dialect = dialects.find((d) => d.matches(method, path));
    if (!dialect) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock server: no dialect serves ${method} ${path}` } }));
      return;
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (err) {
      // A malformed request is the client's fault: a 500 would make it retry the same bytes.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock server: request body is not JSON: ${err instanceof Error ? err.message : String(err)}` } }));
      return;
    }
    const request = dialect.parse(body, req.headers, path);
    requests.push(request);
    const reply: MockReply = await options.script(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.status && reply.status >= 400) {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfterS !== undefined ? { 'retry-after': String(reply.retryAfterS) } : {}) });
      res.end(JSON.stringify({ error: { message: reply.errorMessage ?? `mock error ${reply.status}`, type: 'mock_error' } }));
      return;
    }
    dialect.write(reply, request, res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  return JSON.parse(text) as unknown;
}
