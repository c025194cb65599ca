import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insideRelayScript, loopbackTargets, openPortRelay, type PortRelay } from '../../src/containment/relay.js';

const MB = 1 << 20;

/** A free loopback port: listened on, then let go. */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether anything listens on the loopback port. */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });
}

// The inside relay, run here without a namespace: it listens on a port of this host's loopback
// and carries each connection to the host side's socket, which carries it to `upstream`.
type Launch = (relay: PortRelay, command: string, args: string[]) => { command: string; args: string[] };
const fromShell =
  (perl: string | null): Launch =>
  (relay, command, args) => ({ command: 'sh', args: ['-c', [...insideRelayScript(process.execPath, relay, perl), 'exec "$@"'].join('\n'), 'relay-test', command, ...args] });

describe.each<[string, Launch]>([
  ['Perl', fromShell('/usr/bin/perl')],
  ['Node, without Perl', fromShell(null)],
])('the inside port relay in %s', (_name, launch) => {
  let dir: string;
  let upstream: Server;
  let upstreamPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evf-relay-test-'));
    // Echoes what it gets, then says how many bytes and ends, once a whole MB came (half-closes: relayHalfClose.test.ts).
    upstream = createServer((socket) => {
      let bytes = 0;
      socket.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        socket.write(chunk);
        if (bytes >= MB) socket.end(`\nbytes ${bytes}\n`);
      });
      socket.on('error', () => undefined);
    });
    upstreamPort = await new Promise<number>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve((upstream.address() as { port: number }).port)));
  });
  afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('listens before the command starts, carries a large stream both ways, and ends soon after the command', async () => {
    const inside = await freePort();
    const relay = await openPortRelay(dir, [{ inside: { address: '127.0.0.1', port: inside }, upstream: { host: '127.0.0.1', port: upstreamPort } }]);
    try {
      // The command sends 1 MB in each of two connections at once and prints what came back of each.
      const client = `const net=require('net');const one=()=>new Promise(r=>{const s=net.connect(${inside},'127.0.0.1');let n=0,tail='';s.on('data',d=>{n+=d.length;tail=(tail+d).slice(-20)});s.on('end',()=>r(n+' '+tail.trim().split('\\n').pop()));s.write(Buffer.alloc(1<<20,120));});Promise.all([one(),one()]).then(a=>console.log(a.join('\\n')));`;
      const { code, out, err } = await runLaunched(launch(relay, process.execPath, ['-e', client]));
      expect(code, err).toBe(0);
      const total = MB + `\nbytes ${MB}\n`.length;
      expect(out.trim().split('\n')).toEqual([`${total} bytes ${MB}`, `${total} bytes ${MB}`]);
      // Nothing of the relay outlives its command for long (no PID namespace here to end it).
      let open = true;
      for (let i = 0; i < 40 && open; i++) {
        open = await listens(inside);
        if (open) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(open).toBe(false);
    } finally {
      await relay.close();
    }
  });

  it('carries many short connections, one after another and twenty at once, each its own reply', async () => {
    const inside = await freePort();
    // Answers each request with its own words once a line came (as HTTP does, without a half-close).
    const server = createServer((socket) => {
      let got = '';
      const answer = () => socket.end(`re:${got.trim()}`);
      socket.on('data', (chunk: Buffer) => {
        got += chunk.toString();
        if (got.endsWith('\n')) answer();
      });
      socket.on('error', () => undefined);
    });
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const relay = await openPortRelay(dir, [{ inside: { address: '127.0.0.1', port: inside }, upstream: { host: '127.0.0.1', port } }]);
    try {
      const client = `const net=require('net');const ask=(w)=>new Promise(r=>{const s=net.connect(${inside},'127.0.0.1',()=>s.write(w+'\\n'));let a='';s.on('data',d=>a+=d);s.on('end',()=>{s.end();r(a)});s.on('error',e=>r(e.code))});
(async()=>{const out=[];for(let i=0;i<30;i++)out.push(await ask('s'+i));out.push(...await Promise.all(Array.from({length:20},(_,i)=>ask('p'+i))));console.log(out.join(','))})();`;
      const { code, out, err } = await runLaunched(launch(relay, process.execPath, ['-e', client]));
      expect(code, err).toBe(0);
      const expected = [...Array.from({ length: 30 }, (_, i) => `re:s${i}`), ...Array.from({ length: 20 }, (_, i) => `re:p${i}`)];
      expect(out.trim().split(',')).toEqual(expected);
    } finally {
      await relay.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('loopbackTargets', () => {
  it('relays each host loopback port at the same port inside', () => {
    expect(loopbackTargets([8080])).toEqual([{ inside: { address: '127.0.0.1', port: 8080 }, upstream: { host: '127.0.0.1', port: 8080 } }]);
  });
});

/** A command launched through the relay, run to its end: its exit code and output. */
async function runLaunched(launched: { command: string; args: string[] }): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(launched.command, launched.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, err };
}
