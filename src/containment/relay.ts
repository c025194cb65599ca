import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/**
 * Host loopback ports (the model server), and remote endpoints on an allow-list, made
 * reachable from inside a network namespace through path-based Unix sockets, which are not
 * network-namespaced: on the host, one socket per target relays to it; inside, a small Node
 * relay listens on a loopback address and port and connects to that socket. Nothing else of
 * the host's network is reachable.
 */
export interface RelayTarget {
  /** Where the inside listens: 127.0.0.1 for a host loopback port, another 127.x address for a remote host. */
  inside: { address: string; port: number };
  /** Where the host side connects. */
  upstream: { host: string; port: number };
}

export interface PortRelay {
  /** `address:port=socket` pairs for the inside relay. */
  pairs: string[];
  close(): Promise<void>;
}

/** Inside the namespace: listen on each port, relay to its socket, then mark readiness. */
const INSIDE = `const net=require('net'),fs=require('fs');const [ready,...pairs]=process.argv.slice(1);let up=0;const parent=process.ppid;
setInterval(()=>{if(process.ppid!==parent)process.exit(0);},500).unref();
for(const pair of pairs){const i=pair.indexOf('='),at=pair.lastIndexOf(':',i);const addr=pair.slice(0,at),port=Number(pair.slice(at+1,i)),sock=pair.slice(i+1);
net.createServer((c)=>{const u=net.connect(sock);c.pipe(u).pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy());})
.listen(port,addr,()=>{if(++up===pairs.length)fs.writeFileSync(ready,'1');});}`;

/** Host loopback ports, as relay targets. */
export function loopbackTargets(ports: number[]): RelayTarget[] {
  return ports.map((port) => ({ inside: { address: '127.0.0.1', port }, upstream: { host: '127.0.0.1', port } }));
}

/** Opens one host-side socket per target in `dir` (a folder of the process's own). */
export async function openPortRelay(dir: string, targets: RelayTarget[]): Promise<PortRelay> {
  const servers: Server[] = [];
  const pairs: string[] = [];
  for (const [n, target] of targets.entries()) {
    const socket = join(dir, `${n}.sock`);
    const server = createServer((client) => {
      const upstream = createConnection(target.upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
    servers.push(server);
    pairs.push(`${target.inside.address}:${target.inside.port}=${socket}`);
  }
  return {
    pairs,
    close: () => Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => undefined),
  };
}

/**
 * The shell lines that start the inside relay in the background and wait (up to 10 s) until
 * it listens, before the script goes on to `exec "$@"`. `node` is the Node binary to use.
 */
export function insideRelayScript(node: string, dir: string, relay: PortRelay): string[] {
  const ready = join(dir, 'ready');
  return [
    `${shellQuote(node)} -e ${shellQuote(INSIDE)} ${shellQuote(ready)} ${relay.pairs.map(shellQuote).join(' ')} &`,
    `i=0; while [ ! -e ${shellQuote(ready)} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
  ];
}

export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
