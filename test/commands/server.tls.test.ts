import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { isPortOpen } from '../../src/temporal/devServer.js';
import { advertisedAddress } from '../../src/temporal/teamPorts.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { postgresUrl, rawPostgres } from '../support/postgres.js';
import { freeTeamPorts } from '../support/temporalServer.js';
import { throwawayCa } from '../support/throwawayCa.js';

/**
 * The team server over mutual TLS, as docs/scale-out.md sets it up: a throwaway CA signs the
 * server's certificate, another CA the clients'. Bound beyond loopback, it gives no warning.
 */
describe('evalflow server --persistence postgres --tls-*', () => {
  const database = `evalflow_tls_${randomBytes(4).toString('hex')}`;
  const external = advertisedAddress('0.0.0.0');
  let dir: string;
  let server: CliProcess | undefined;
  let env: NodeJS.ProcessEnv;
  let port: number;
  let uiPort: number;
  let files: { ca: string; clientCa: string; cert: string; key: string; clientCert: string; clientKey: string };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-server-tls-'));
    const serverCa = await throwawayCa(dir, 'ca');
    const clientCa = await throwawayCa(dir, 'clients-ca');
    const issued = await serverCa.issue('server', ['DNS:temporal.test', 'IP:127.0.0.1', `IP:${external}`]);
    const client = await clientCa.issue('worker-1', ['DNS:worker-1']);
    files = { ca: serverCa.ca, clientCa: clientCa.ca, cert: issued.cert, key: issued.key, clientCert: client.cert, clientKey: client.key };
    ({ port, uiPort } = await freeTeamPorts());
    // The real HOME: the provisioned binaries live in its cache.
    env = { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: join(dir, 'state'), EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(uiPort) };
    const url = new URL(await postgresUrl());
    url.pathname = `/${database}`;
    server = startCli(['server', '--persistence', 'postgres', '--database-url', url.toString(), '--bind', '0.0.0.0', '--tls-cert', 'server.pem', '--tls-key', 'server.key', '--tls-ca', 'ca.pem', '--tls-client-ca', 'clients-ca.pem'], { cwd: dir, env });
    await server.waitForLine(/Ctrl-C stops it/, 240_000);
  }, 300_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const clientSettings = (extra: Record<string, string>) => loadSettings(dir, { HOME: dir, EVALFLOW_HOME: join(dir, 'client'), TEMPORAL_ADDRESS: `${external}:${port}`, ...extra });

  it('says what clients set, and a client with the CA and its certificate works through it (frontend, history, matching)', { timeout: 120_000 }, async () => {
    expect(server!.stdout).toContain(`workers and CLIs on other machines: TEMPORAL_ADDRESS=${external}:${port} TEMPORAL_TLS_SERVER_CA_CERT_PATH=${files.ca} TEMPORAL_TLS_SERVER_NAME=temporal.test TEMPORAL_TLS_CLIENT_CERT_PATH=<its certificate> TEMPORAL_TLS_CLIENT_KEY_PATH=<its key>`);
    const settings = await clientSettings({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: files.ca, TEMPORAL_TLS_SERVER_NAME: 'temporal.test', TEMPORAL_TLS_CLIENT_CERT_PATH: files.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: files.clientKey });
    const handle = await connectTemporal(settings, () => undefined, { startEmbedded: false });
    try {
      expect(handle.mode).toBe('cluster');
      // A workflow started and ended: the frontend reached history and matching over their own TLS.
      const started = await handle.client.workflow.start('noSuchWorkflow', { taskQueue: `tls-${randomBytes(3).toString('hex')}`, workflowId: `tls-probe-${randomBytes(3).toString('hex')}` });
      expect((await started.describe()).status.name).toBe('RUNNING');
      await started.terminate('tls probe');
      expect((await started.describe()).status.name).toBe('TERMINATED');
    } finally {
      await handle.close();
    }
  });

  it('a plain client gets one line saying the server speaks TLS, exit 69', { timeout: 120_000 }, async () => {
    // `status` falls back to the store when Temporal cannot be reached; `schedule list` needs Temporal.
    const plain = startCli(['schedule', 'list'], { cwd: dir, env: { ...env, EVALFLOW_HOME: join(dir, 'plain'), TEMPORAL_ADDRESS: `${external}:${port}` } });
    expect(await plain.exited).toBe(69);
    expect(plain.stderr.filter((line) => line.trim() !== '')).toEqual([`error: Temporal at ${external}:${port} (TEMPORAL_ADDRESS) speaks TLS and this client does not: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed its certificate (TEMPORAL_TLS=true for a public CA; docs/scale-out.md)`]);
  });

  it('a TLS client without a certificate from the client CA is turned away', { timeout: 120_000 }, async () => {
    const settings = await clientSettings({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: files.ca, TEMPORAL_TLS_SERVER_NAME: 'temporal.test' });
    await expect(connectTemporal(settings, () => undefined, { startEmbedded: false })).rejects.toThrow(/^Temporal at .* \(TEMPORAL_ADDRESS\) is unreachable \(TLS is on/);
  });

  it('the internal services let in only the server itself, and the Web UI answers on this machine only', { timeout: 120_000 }, async () => {
    const tls = { serverRootCACertificate: await readFile(files.ca), serverNameOverride: 'temporal.test', clientCertPair: { crt: await readFile(files.clientCert), key: await readFile(files.clientKey) } };
    // History: a client certificate the frontend accepts is not the server's own.
    // It listens, and the handshake fails: grpc-js reports that as UNAVAILABLE or as the connect deadline.
    expect(await isPortOpen(external, port + 1)).toBe(true);
    await expect(Connection.connect({ address: `${external}:${port + 1}`, tls, connectTimeout: 5_000 })).rejects.toThrow(/UNAVAILABLE|before the deadline/);
    expect((await fetch(`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows`)).status).toBe(200);
    await expect(fetch(`http://${external}:${uiPort}/`)).rejects.toThrow();
  });

  it('stops on Ctrl-C, having warned of nothing', { timeout: 60_000 }, async () => {
    server!.kill('SIGINT');
    expect(await server!.exited).toBe(0);
    expect(server!.lines.filter((line) => /^(warning|note):/.test(line))).toEqual([]);
    expect(server!.stdout.some((line) => line.startsWith('TLS on the frontend (certificate for temporal.test, clients must show a certificate signed by --tls-client-ca)'))).toBe(true);
  });
});

describe('evalflow server --tls-* given wrong', () => {
  it('names the flag in one line, exit 2: on the dev server, alone, or a file that is no certificate', { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-server-tls-bad-'));
    try {
      const env = { PATH: process.env.PATH, HOME: dir, EVALFLOW_HOME: join(dir, 'state') };
      const runs = [
        [['server', '--tls-cert', 'server.pem', '--tls-key', 'server.key'], 'error: --tls-cert: TLS is for the team server; use it with --persistence postgres (the dev server speaks plain gRPC only)'],
        [['server', '--persistence', 'postgres', '--tls-cert', 'server.pem'], 'error: --tls-cert: TLS needs both --tls-cert and --tls-key'],
        [['server', '--persistence', 'postgres', '--tls-cert', 'server.pem', '--tls-key', 'server.key'], `error: --tls-cert ${join(dir, 'server.pem')}: cannot read it (ENOENT); give a readable PEM file`],
      ] as const;
      const clis = runs.map(([args]) => startCli([...args], { cwd: dir, env }));
      for (const [i, cli] of clis.entries()) {
        expect(await cli.exited).toBe(2);
        expect(cli.stderr.filter((l) => l.trim() !== '')).toEqual([runs[i]![1]]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
