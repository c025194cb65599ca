import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../src/config.js';
import { ConfigError } from '../src/errors.js';
import { connectionOptionsOf } from '../src/temporal/connectionOptions.js';
import { resolveTemporalConnection } from '../src/temporalSettings.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-conn-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const toml = `
[profile.default]
address = "default.example:7233"
namespace = "from-toml"

[profile.cloud]
address = "ns.acct.tmprl.cloud:7233"
namespace = "ns.acct"
api_key = "toml-key"

[profile.mtls]
address = "cluster.internal:7233"
[profile.mtls.tls]
client_cert_path = "/nonexistent/client.pem"
client_key_path = "/nonexistent/client.key"
server_name = "cluster.internal"
`;

describe('resolveTemporalConnection', () => {
  it('reads the TOML profile the temporal CLI uses, TEMPORAL_PROFILE picking one', async () => {
    const file = join(dir, 'temporal.toml');
    await writeFile(file, toml);
    const base = resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: file }, {}, 'evalflow.config.yaml');
    expect(base).toMatchObject({ address: 'default.example:7233', namespace: 'from-toml', apiKey: undefined, tls: undefined });
    const cloud = resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud' }, {}, 'evalflow.config.yaml');
    // An API key turns TLS on, as in every Temporal client.
    expect(cloud).toMatchObject({ address: 'ns.acct.tmprl.cloud:7233', namespace: 'ns.acct', apiKey: 'toml-key', tls: {} });
    expect(() => resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'nope' }, {}, 'x')).toThrow(/TEMPORAL_PROFILE=nope: .* has no \[profile\.nope\] \(it has default, cloud, mtls\)/);
  });

  it('puts TEMPORAL_* variables over evalflow config over the TOML profile', async () => {
    const file = join(dir, 'temporal.toml');
    await writeFile(file, toml);
    const env = { TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'cloud', MY_KEY: 'config-key' };
    const fromConfig = resolveTemporalConnection(env, { address: 'config:7233', api_key_env: 'MY_KEY', tls: { server_name: 'cfg' } }, 'evalflow.config.yaml');
    expect(fromConfig).toMatchObject({ address: 'config:7233', namespace: 'ns.acct', apiKey: 'config-key', tls: { server_name: 'cfg' } });
    expect(fromConfig.sources).toMatchObject({ address: 'temporal.address in evalflow.config.yaml', api_key: 'MY_KEY', namespace: expect.stringContaining('[profile.cloud]') });
    const fromEnv = resolveTemporalConnection({ ...env, TEMPORAL_ADDRESS: 'env:7233', TEMPORAL_API_KEY: 'env-key', TEMPORAL_TLS: 'false' }, { address: 'config:7233', api_key_env: 'MY_KEY' }, 'evalflow.config.yaml');
    expect(fromEnv).toMatchObject({ address: 'env:7233', apiKey: 'env-key', tls: undefined });
  });

  it('names the setting in one line for malformed input', async () => {
    const bad = join(dir, 'bad.toml');
    await writeFile(bad, '[profile.default\naddress = 1');
    expect(() => resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: bad }, {}, 'x')).toThrow(/bad\.toml: not a valid Temporal config file .*fix it or point TEMPORAL_CONFIG_FILE elsewhere$/);
    expect(() => resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: join(dir, 'missing.toml') }, {}, 'x')).toThrow(/^TEMPORAL_CONFIG_FILE .*missing\.toml: cannot read it \(ENOENT\)/);
    expect(() => resolveTemporalConnection({ HOME: dir, TEMPORAL_TLS: 'maybe' }, {}, 'x')).toThrow('TEMPORAL_TLS=maybe: expected true or false');
    expect(() => resolveTemporalConnection({ HOME: dir }, { api_key_env: 'UNSET_KEY' }, 'evalflow.config.yaml')).toThrow('temporal.api_key_env in evalflow.config.yaml names UNSET_KEY, which is not set: export it or remove api_key_env');
  });
});

describe('connectionOptionsOf', () => {
  it('reads the certificate files now; an unreadable one is one line naming the setting', async () => {
    const file = join(dir, 'temporal.toml');
    await writeFile(file, toml);
    const mtls = resolveTemporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'mtls' }, {}, 'x');
    let error: unknown;
    try {
      connectionOptionsOf(mtls, mtls.address!);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^tls\.client_cert_path in .*\[profile\.mtls\]: cannot read \/nonexistent\/client\.pem \(ENOENT\); point it at a readable PEM file$/);

    // A directory where the file should be: unreadable even for root.
    const viaEnv = resolveTemporalConnection({ HOME: dir, TEMPORAL_ADDRESS: 'a:1', TEMPORAL_TLS_SERVER_CA_CERT_PATH: dir }, {}, 'x');
    expect(() => connectionOptionsOf(viaEnv, 'a:1')).toThrow(`TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read ${dir} (EISDIR); point it at a readable PEM file`);
  });

  it('resolves config-file paths against the config and carries the API key into the options', async () => {
    const project = join(dir, 'project');
    await writeFile(join(dir, 'client.pem'), 'CERT');
    await writeFile(join(dir, 'client.key'), 'KEY');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'evalflow.config.yaml'), 'temporal:\n  address: cluster:7233\n  api_key_env: EVALFLOW_TEST_KEY\n  tls:\n    client_cert_path: ../client.pem\n    client_key_path: ../client.key\n    server_name: cluster.internal\n');
    const settings = await loadSettings(project, { HOME: dir, EVALFLOW_TEST_KEY: 'sekret' });
    const options = connectionOptionsOf(settings.temporal.connection, 'cluster:7233');
    expect(options.apiKey).toBe('sekret');
    expect(options.tls).toEqual({ clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') }, serverNameOverride: 'cluster.internal' });
  });

  it('the built API key reaches the server as the authorization header', async () => {
    // A bare HTTP/2 server records what the SDK sends on its first call, then refuses it.
    const seen: http2.IncomingHttpHeaders[] = [];
    const server = http2.createServer();
    server.on('stream', (stream, headers) => {
      seen.push(headers);
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '16', 'grpc-message': 'no' }, { endStream: true });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const connection = resolveTemporalConnection({ HOME: dir, TEMPORAL_ADDRESS: address, TEMPORAL_API_KEY: 'key-123', TEMPORAL_TLS: 'false' }, {}, 'x');
      const options = connectionOptionsOf(connection, address);
      expect(options).toEqual({ address, apiKey: 'key-123', tls: false });
      await expect(Connection.connect({ ...options, connectTimeout: 5_000 })).rejects.toThrow();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]!.authorization).toBe('Bearer key-123');
    } finally {
      server.close();
    }
  });
});
