import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionOptionsOf } from '../../src/temporal/connectionOptions.js';
import { resolveTemporalConnection } from '../../src/temporalSettings.js';
import { throwawayCa } from '../support/throwawayCa.js';

/**
 * Temporal Cloud's API-key path, as the options built for it reach a server: TLS on, checked
 * against the configured CA, and the key as the authorization header, from the client's
 * connection and the worker's alike. A bare HTTP/2 server over TLS stands for the frontend: it
 * records the headers of each call, then refuses it (UNAUTHENTICATED).
 */
let dir: string;
let server: http2.Http2SecureServer;
let address: string;
const seen: http2.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-conn-options-'));
  const ca = await throwawayCa(dir);
  const issued = await ca.issue('frontend', ['DNS:ns.acct.tmprl.test', 'IP:127.0.0.1']);
  server = http2.createSecureServer({ cert: await readFile(issued.cert), key: await readFile(issued.key), ALPNProtocols: ['h2'] });
  server.on('stream', (stream, headers) => {
    seen.push(headers);
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '16', 'grpc-message': 'bad key' }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as { port: number }).port}`;
}, 120_000);

afterAll(async () => {
  server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('connectionOptionsOf with an API key', () => {
  const cloud = () =>
    connectionOptionsOf(resolveTemporalConnection({ HOME: dir, TEMPORAL_ADDRESS: address, TEMPORAL_API_KEY: 'cloud-key-1', TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca.pem'), TEMPORAL_TLS_SERVER_NAME: 'ns.acct.tmprl.test' }, {}, 'x'), address);

  it('keeps TLS on beside the key, with the CA and the server name', async () => {
    expect(cloud()).toEqual({ address, apiKey: 'cloud-key-1', tls: { serverRootCACertificate: await readFile(join(dir, 'ca.pem')), serverNameOverride: 'ns.acct.tmprl.test' } });
    // A key alone turns TLS on with the system's CAs, as Temporal Cloud needs.
    expect(connectionOptionsOf(resolveTemporalConnection({ HOME: dir, TEMPORAL_ADDRESS: address, TEMPORAL_API_KEY: 'k' }, {}, 'x'), address)).toEqual({ address, apiKey: 'k', tls: {} });
  });

  it("reaches the server over TLS as `authorization: Bearer <key>` from the client's connection", async () => {
    seen.length = 0;
    await expect(Connection.connect({ ...cloud(), connectTimeout: 10_000 })).rejects.toThrow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((headers) => headers.authorization === 'Bearer cloud-key-1')).toBe(true);
  }, 60_000);

  it("and from the worker's native connection", async () => {
    seen.length = 0;
    await expect(NativeConnection.connect(cloud())).rejects.toThrow();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((headers) => headers.authorization === 'Bearer cloud-key-1')).toBe(true);
  }, 60_000);
});
