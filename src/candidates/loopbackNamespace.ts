import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A command wrapped to run in a new network namespace with only `lo` up. Host loopback ports
 * (the model server) stay reachable inside through path-based Unix sockets, which are not
 * network-namespaced: on the host, one socket per port relays to 127.0.0.1:<port>; inside,
 * a small Node relay listens on 127.0.0.1:<port> and connects to that socket. The relay runs
 * in the agent's process group, so it dies with it.
 */
export interface LoopbackNamespace {
  command: string;
  args: string[];
  close(): Promise<void>;
}

/** Inside the namespace: listen on each port, relay to its socket, then mark readiness. */
const RELAY = `const net=require('net'),fs=require('fs');const [ready,...pairs]=process.argv.slice(1);let up=0;const parent=process.ppid;
setInterval(()=>{if(process.ppid!==parent)process.exit(0);},500).unref();
for(const pair of pairs){const i=pair.indexOf('=');const port=Number(pair.slice(0,i)),sock=pair.slice(i+1);
net.createServer((c)=>{const u=net.connect(sock);c.pipe(u).pipe(c);c.on('error',()=>u.destroy());u.on('error',()=>c.destroy());})
.listen(port,'127.0.0.1',()=>{if(++up===pairs.length)fs.writeFileSync(ready,'1');});}`;

export async function wrapInLoopbackNamespace(command: string, args: string[], forwardPorts: number[] = []): Promise<LoopbackNamespace> {
  if (forwardPorts.length === 0) {
    return { command: 'unshare', args: ['-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'evalflow-netns', command, ...args], close: async () => undefined };
  }
  const dir = await mkdtemp(join(tmpdir(), 'evf-ns-'));
  const servers: Server[] = [];
  const pairs: string[] = [];
  for (const port of forwardPorts) {
    const socket = join(dir, `${port}.sock`);
    const server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
    servers.push(server);
    pairs.push(`${port}=${socket}`);
  }
  const ready = join(dir, 'ready');
  const script = [
    'ip link set lo up || exit 97',
    `${quote(process.execPath)} -e ${quote(RELAY)} ${quote(ready)} ${pairs.map(quote).join(' ')} &`,
    `i=0; while [ ! -e ${quote(ready)} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`,
    'exec "$@"',
  ].join('\n');
  return {
    command: 'unshare',
    args: ['-n', 'sh', '-c', script, 'evalflow-netns', command, ...args],
    async close() {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The loopback port of a base URL (127.0.0.1, localhost, ::1), if it has one. */
export function loopbackPort(baseUrl: string | undefined): number | undefined {
  if (!baseUrl) return undefined;
  try {
    const url = new URL(baseUrl);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined;
    return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    return undefined;
  }
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
