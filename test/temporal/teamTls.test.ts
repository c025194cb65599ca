import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { clientTlsEnv, localClientTls, resolveTeamTls, serverTlsSection, uiTlsSection } from '../../src/temporal/teamTls.js';
import { throwawayCa, type ThrowawayCa } from '../support/throwawayCa.js';

let dir: string;
let ca: ThrowawayCa;
let server: { cert: string; key: string };
let other: { cert: string; key: string };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-teamtls-'));
  ca = await throwawayCa(dir);
  server = await ca.issue('server', ['DNS:temporal.internal', 'IP:127.0.0.1']);
  other = await ca.issue('other', ['IP:10.0.0.5']);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveTeamTls', () => {
  it('takes the first DNS name of the certificate, else its first IP address, as the name clients check', () => {
    expect(resolveTeamTls({ ...server, ca: ca.ca }).serverName).toBe('temporal.internal');
    expect(resolveTeamTls(other).serverName).toBe('10.0.0.5');
  });

  it('names the flag of an unreadable file, a file that is no certificate, and a key of another certificate', async () => {
    expect(() => resolveTeamTls({ cert: join(dir, 'missing.pem'), key: server.key })).toThrow(new UsageError(`--tls-cert ${join(dir, 'missing.pem')}: cannot read it (ENOENT); give a readable PEM file`));
    await writeFile(join(dir, 'junk.pem'), 'not a certificate\n');
    expect(() => resolveTeamTls({ ...server, ca: join(dir, 'junk.pem') })).toThrow(/^--tls-ca .*junk\.pem: not a PEM certificate/);
    expect(() => resolveTeamTls({ ...server, clientCa: join(dir, 'junk.pem') })).toThrow(/^--tls-client-ca .*junk\.pem: not a PEM certificate/);
    expect(() => resolveTeamTls({ cert: server.cert, key: join(dir, 'junk.pem') })).toThrow(/^--tls-key .*junk\.pem: not a PEM private key/);
    expect(() => resolveTeamTls({ cert: server.cert, key: other.key })).toThrow(/^--tls-key .*other\.key: not the key of --tls-cert .*server\.pem/);
  });

  it('refuses a certificate that names no host, which no client could verify', async () => {
    const bare = await ca.issue('bare', []);
    expect(() => resolveTeamTls(bare)).toThrow(/^--tls-cert .*bare\.pem: the certificate names no host/);
  });
});

describe('the configs written from it', () => {
  it('mutual TLS: the frontend requires client certificates from the client CA, and the internal services trust only the server certificate', () => {
    const tls = resolveTeamTls({ ...server, ca: ca.ca, clientCa: ca.ca });
    const section = serverTlsSection(tls) as Record<string, Record<string, Record<string, unknown>>>;
    expect(section.frontend!.server).toEqual({ certFile: server.cert, keyFile: server.key, requireClientAuth: true, clientCaFiles: [ca.ca, server.cert] });
    expect(section.internode!.server).toEqual({ certFile: server.cert, keyFile: server.key, requireClientAuth: true, clientCaFiles: [server.cert] });
    expect(section.internode!.client).toEqual({ serverName: 'temporal.internal', rootCaFiles: [ca.ca] });
    expect(section.systemWorker).toEqual({ certFile: server.cert, keyFile: server.key, client: { serverName: 'temporal.internal', rootCaFiles: [ca.ca] } });
    expect(uiTlsSection(tls)).toEqual({ caFile: ca.ca, certFile: server.cert, keyFile: server.key, serverName: 'temporal.internal', enableHostVerification: true });
    const client = localClientTls(tls);
    expect(client.serverNameOverride).toBe('temporal.internal');
    expect(client.clientCertPair?.crt.toString()).toContain('BEGIN CERTIFICATE');
    expect(clientTlsEnv(tls)).toBe(`TEMPORAL_TLS_SERVER_CA_CERT_PATH=${ca.ca} TEMPORAL_TLS_SERVER_NAME=temporal.internal TEMPORAL_TLS_CLIENT_CERT_PATH=<its certificate> TEMPORAL_TLS_CLIENT_KEY_PATH=<its key>`);
  });

  it('server TLS only: no client certificate asked, the system CAs when no CA is given', () => {
    const tls = resolveTeamTls(server);
    const section = serverTlsSection(tls) as Record<string, Record<string, Record<string, unknown>>>;
    expect(section.frontend!.server).toEqual({ certFile: server.cert, keyFile: server.key, requireClientAuth: false });
    expect(section.frontend!.client).toEqual({ serverName: 'temporal.internal', forceTLS: true });
    expect(uiTlsSection(tls)).toEqual({ serverName: 'temporal.internal', enableHostVerification: true });
    expect(localClientTls(tls)).toEqual({ serverNameOverride: 'temporal.internal' });
    expect(clientTlsEnv(tls)).toBe('TEMPORAL_TLS=true TEMPORAL_TLS_SERVER_NAME=temporal.internal');
  });
});
