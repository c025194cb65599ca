import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { TemporalUnreachableError } from '../../src/errors.js';
import { connectTemporal, searchAttributeCommands } from '../../src/temporal/connection.js';
import { allSearchAttributeKeys } from '../../src/temporal/names.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

/**
 * The dev server speaks plain gRPC; a TLS-terminating proxy in front of it, with a throwaway CA
 * made by openssl, is a TLS-secured Temporal as a client sees it.
 */
let temporal: TestTemporal;
let dir: string;
let proxy: tls.Server;
let address: string;

beforeAll(async () => {
  temporal = await startTestTemporal();
  dir = await mkdtemp(join(tmpdir(), 'evalflow-tls-'));
  const ssl = (...args: string[]) => execa('openssl', args, { cwd: dir });
  await ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=evalflow test CA');
  await ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=temporal.test');
  await execa('bash', ['-c', 'printf "subjectAltName=DNS:temporal.test,IP:127.0.0.1\\n" > san.ext'], { cwd: dir });
  await ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
  proxy = tls.createServer({ key: await readFile(join(dir, 'server.key')), cert: await readFile(join(dir, 'server.pem')), ALPNProtocols: ['h2'] }, (socket) => {
    const upstream = net.connect(temporal.port, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  proxy?.close();
  await temporal?.stop();
  await rm(dir, { recursive: true, force: true });
});

const settingsWith = (env: Record<string, string>) => loadSettings(dir, { HOME: dir, TEMPORAL_ADDRESS: address, ...env });

describe('a TLS-secured Temporal', () => {
  it('is reached with its CA configured, and the client works through it', async () => {
    const handle = await connectTemporal(await settingsWith({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca.pem') }), () => undefined, { startEmbedded: false });
    try {
      expect(handle.mode).toBe('cluster');
      const info = await handle.client.workflowService.getSystemInfo({});
      expect(info.serverVersion).toBeTruthy();
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('is not reached without the CA (untrusted certificate) nor without TLS', async () => {
    await expect(connectTemporal(await settingsWith({ TEMPORAL_TLS: 'true' }), () => undefined, { startEmbedded: false })).rejects.toBeInstanceOf(TemporalUnreachableError);
    const plain = connectTemporal(await settingsWith({}), () => undefined, { startEmbedded: false });
    await expect(plain).rejects.toBeInstanceOf(TemporalUnreachableError);
    // The client says why: the server answers TLS, which it was not told to speak.
    await expect(plain).rejects.toThrow(/^Temporal at 127\.0\.0\.1:\d+ \(TEMPORAL_ADDRESS\) speaks TLS and this client does not: set TEMPORAL_TLS_SERVER_CA_CERT_PATH/);
  }, 120_000);

  it('names the CA setting when the server certificate is not trusted', async () => {
    await expect(connectTemporal(await settingsWith({ TEMPORAL_TLS: 'true' }), () => undefined, { startEmbedded: false })).rejects.toThrow(/TLS is on: check the server speaks TLS and its certificate matches tls\.server_ca_cert_path/);
  }, 120_000);
});

describe('searchAttributeCommands', () => {
  it('gives the exact commands to register the attributes', () => {
    const line = searchAttributeCommands('ns.acct', allSearchAttributeKeys.slice(0, 2));
    expect(line).toBe('evalflow may not register its search attributes on namespace ns.acct; register them once with: temporal operator search-attribute create --namespace ns.acct --name EvalCase --type Keyword --name EvalCandidate --type Keyword (Temporal Cloud: tcld namespace search-attributes add --namespace ns.acct --search-attribute EvalCase=Keyword --search-attribute EvalCandidate=Keyword)');
  });
});
