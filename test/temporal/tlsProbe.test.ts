import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speaksTls } from '../../src/temporal/tlsProbe.js';
import { freePort } from '../support/temporalServer.js';
import { throwawayCa } from '../support/throwawayCa.js';

let dir: string;
const servers: net.Server[] = [];

const listen = async (server: net.Server) => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalflow-probe-'));
}, 60_000);

afterAll(async () => {
  for (const server of servers) server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('speaksTls', () => {
  it('is true for a TLS server, also one that asks for a client certificate', async () => {
    const ca = await throwawayCa(dir);
    const { cert, key } = await ca.issue('server', ['IP:127.0.0.1']);
    const options = { cert: await readFile(cert), key: await readFile(key) };
    expect(await speaksTls(await listen(tls.createServer(options, (s) => s.end())))).toBe(true);
    const mutual = tls.createServer({ ...options, ca: await readFile(ca.ca), requestCert: true, rejectUnauthorized: true }, (s) => s.end());
    expect(await speaksTls(await listen(mutual))).toBe(true);
  }, 60_000);

  it('is false for a plain TCP server, one that closes at once, and a closed port', async () => {
    expect(await speaksTls(await listen(net.createServer((s) => s.on('error', () => undefined).write('HTTP/1.1 400 Bad Request\r\n\r\n'))))).toBe(false);
    expect(await speaksTls(await listen(net.createServer((s) => s.destroy())))).toBe(false);
    expect(await speaksTls(`127.0.0.1:${await freePort()}`)).toBe(false);
  });
});
