import { createHash } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Relay from '../../src/containment/relay.js';
import { makeHost, shellAsCandidate, type HostFixture } from './containmentFixture.js';

// Which inside relay containCommand starts: the host's Perl (as in real use), or none, so the Node fallback runs.
const choice = vi.hoisted(() => ({ perl: '/usr/bin/perl' as string | null }));
vi.mock('../../src/containment/relay.js', async (importOriginal) => {
  const real = await importOriginal<typeof Relay>();
  return { ...real, relayedCommand: (...args: Parameters<typeof real.relayedCommand>) => real.relayedCommand(args[0], args[1], args[2], args[3], choice.perl) };
});

const MB = 1 << 20;

/** The same bytes inside and out: a pattern with no period that divides a buffer size. */
function payload(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 13)) & 255;
  return bytes;
}
const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/**
 * The client, run inside the sandbox by node. `request`: sends, half-closes, reads the reply to
 * its end. `greeted`: reads the server's greeting to its end (the server half-closed), then sends
 * and half-closes. `reset`: sends a little, then resets. `flood`: sends until the connection
 * ends. `leave`: sends, half-closes and exits without waiting for an answer. The others then wait until the relay holds no more fds than before it connected, and prints
 * one JSON line.
 */
const CLIENT = `const net=require('net'),fs=require('fs'),crypto=require('crypto');
const [mode,port,size]=process.argv.slice(2);
const payload=(n)=>{const b=Buffer.alloc(n);for(let i=0;i<n;i++)b[i]=(i*31+(i>>13))&255;return b};
const digest=(b)=>crypto.createHash('sha256').update(b).digest('hex').slice(0,16);
const relay=fs.readdirSync('/proc').filter(p=>/^\\d+$/.test(p)&&Number(p)!==process.pid).find(p=>{try{const a=fs.readFileSync('/proc/'+p+'/cmdline','utf8').split('\\0');return /perl|node/.test(a[0])&&a.some(x=>x.endsWith('.sock'))}catch{return false}});
const fds=()=>fs.readdirSync('/proc/'+relay+'/fd').length;
const before=fds();
const settle=async()=>{for(let i=0;i<50&&fds()>before;i++)await new Promise(r=>setTimeout(r,100));return fds()-before};
const done=async(o)=>{o.relayFdsLeft=await settle();console.log(JSON.stringify(o))};
const s=net.connect({port:Number(port),host:'127.0.0.1',allowHalfOpen:true});const got=[];let ended=false,error='';
s.on('data',d=>got.push(d));s.on('end',()=>{ended=true});s.on('error',e=>{error=e.code});
const report=()=>{const b=Buffer.concat(got);return {bytes:b.length,digest:digest(b),ended,error}};
if(mode==='request'){s.write(payload(Number(size)));s.end();s.on('close',()=>done(report()))}
if(mode==='greeted'){s.on('end',()=>{s.end(payload(Number(size)))});s.on('close',()=>done(report()))}
if(mode==='reset'){s.write(payload(Number(size)),()=>setTimeout(()=>{s.resetAndDestroy();setTimeout(()=>done({reset:true}),100)},200))}
if(mode==='leave'){s.end(payload(Number(size)),()=>setTimeout(()=>{console.log(JSON.stringify({left:true}));process.exit(0)},300))}
if(mode==='flood'){const chunk=payload(65536);const more=()=>{while(!s.destroyed&&!s.writableEnded&&s.write(chunk));};s.on('connect',more);s.on('drain',more);s.on('end',()=>s.end());s.on('close',()=>done(report()))}
`;

/** What a host-side server saw of one connection. */
interface Seen {
  bytes: number;
  digest: string;
  ended: boolean;
  closed: boolean;
}

/** A host loopback server; `onSocket` answers; each connection's bytes, end and close are kept. */
async function hostServer(onSocket: (socket: Socket, seen: Seen, received: () => Buffer) => void): Promise<{ port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.push(socket);
    const got: Buffer[] = [];
    const one: Seen = { bytes: 0, digest: '', ended: false, closed: false };
    seen.push(one);
    socket.on('data', (chunk: Buffer) => got.push(chunk));
    socket.on('end', () => {
      const all = Buffer.concat(got);
      Object.assign(one, { bytes: all.length, digest: digest(all), ended: true });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (one.closed = true));
    onSocket(socket, one, () => Buffer.concat(got));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    seen,
    close: () => {
      // A server's own sockets left open (one that never closes): ended here, so only the relay's are counted after.
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sockets this (host) process holds: the relay's host side and the test's servers. */
function socketFds(): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:');
    } catch {
      return false;
    }
  }).length;
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

let host: HostFixture;
beforeAll(async () => {
  host = await makeHost();
  await writeFile(join(host.sandboxDir, 'client.js'), CLIENT);
});
afterAll(async () => {
  await host?.close();
});

/** The client inside the contained candidate's sandbox, with `port` relayed in; its JSON line. */
async function inside(mode: string, port: number, size: number): Promise<Record<string, unknown>> {
  const run = await shellAsCandidate(host, `node client.js ${mode} ${port} ${size}`, { view: host.view, forwardPorts: [port], timeoutMs: 60_000 });
  expect(run.exitCode, run.output).toBe(0);
  return JSON.parse(run.output.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}

describe.each<[string, string | null]>([
  ['Perl', '/usr/bin/perl'],
  ['Node, without Perl', null],
])('the relay into a contained candidate (inside relay in %s) carries half-closes', (_name, perl) => {
  beforeAll(() => {
    choice.perl = perl;
  });

  it.each([
    ['a small', 11],
    ['a 64 KiB + 1', 64 * 1024 + 1],
    ['a 5 MiB', 5 * MB],
  ])('client half-closes first: %s request, answered only after the server saw its end', async (_size, size) => {
    const sockets = socketFds();
    // Echoes everything, but only once the request ended (as a server that reads to EOF does).
    const server = await hostServer((socket, _seen, received) => socket.on('end', () => socket.end(received())));
    try {
      const out = await inside('request', server.port, size);
      expect(out).toEqual({ bytes: size, digest: digest(payload(size)), ended: true, error: '', relayFdsLeft: 0 });
      expect(server.seen).toHaveLength(1);
      expect(await until(() => server.seen[0]!.closed)).toBe(true);
      expect(server.seen[0]).toMatchObject({ bytes: size, digest: digest(payload(size)), ended: true });
    } finally {
      await server.close();
    }
    expect(await until(() => socketFds() <= sockets)).toBe(true);
  }, 90_000);

  it.each([
    ['small', 11],
    ['5 MiB', 5 * MB],
  ])('server half-closes first: the client reads its whole greeting, then still sends (%s) and the server still receives', async (_size, size) => {
    const sockets = socketFds();
    const greeting = payload(3 * MB + 7);
    const server = await hostServer((socket) => socket.end(greeting));
    try {
      const out = await inside('greeted', server.port, size);
      expect(out).toEqual({ bytes: greeting.length, digest: digest(greeting), ended: true, error: '', relayFdsLeft: 0 });
      expect(await until(() => server.seen[0]?.closed === true)).toBe(true);
      expect(server.seen[0]).toMatchObject({ bytes: size, digest: digest(payload(size)), ended: true });
    } finally {
      await server.close();
    }
    expect(await until(() => socketFds() <= sockets)).toBe(true);
  }, 90_000);

  it('a client that resets mid-request ends the connection at the server (as an end: a Unix socket carries no reset), nothing left open', async () => {
    const sockets = socketFds();
    const server = await hostServer((socket, _seen, received) => socket.on('end', () => socket.end(received())));
    try {
      expect(await inside('reset', server.port, 256 * 1024)).toEqual({ reset: true, relayFdsLeft: 0 });
      expect(await until(() => server.seen[0]?.closed === true)).toBe(true);
      expect(server.seen[0]?.ended).toBe(true);
    } finally {
      await server.close();
    }
    expect(await until(() => socketFds() <= sockets)).toBe(true);
  }, 60_000);

  it('a connection still open when the command ends is closed with it: the relay does not wait on a server that never answers', async () => {
    const sockets = socketFds();
    // Reads the request to its end, then neither answers nor closes.
    const server = await hostServer(() => undefined);
    try {
      // Before, closing the relay waited on that connection, and the run never returned.
      const hung = new Promise((resolve) => setTimeout(() => resolve('still waiting after 15 s'), 15_000).unref());
      expect(await Promise.race([inside('leave', server.port, 11), hung])).toEqual({ left: true });
      expect(server.seen[0]).toMatchObject({ bytes: 11, ended: true, closed: false });
    } finally {
      await server.close();
    }
    expect(await until(() => socketFds() <= sockets)).toBe(true);
  }, 60_000);

  it('a server that resets while the client still sends ends the client, nothing left open', async () => {
    const sockets = socketFds();
    const server = await hostServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    try {
      const out = await inside('flood', server.port, 0);
      expect(out.relayFdsLeft).toBe(0);
      // Seen inside as an end or as an error, as long as it ends.
      expect(out.ended === true || out.error !== '', JSON.stringify(out)).toBe(true);
    } finally {
      await server.close();
    }
    expect(await until(() => socketFds() <= sockets)).toBe(true);
  }, 60_000);
});
