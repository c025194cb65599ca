// The relay's cost per connection: from inside a contained process (bubblewrap, a host loopback
// port relayed in), 100 connections one after another, each a line out and 2 kB back, (a)
// straight to the relay's host-side Unix socket and (b) through the inside relay's loopback
// port; also (c) through the relay with the client half-closing after its line. Each process
// measures the three in turn; the medians over the processes are printed (ms a connection).
// Not part of `npm run bench` (no ratio goal): a measurement for docs/benchmarks.md.
//
//   node --import tsx bench/relayConnection.ts [processes]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../src/candidates/index.js';
import { candidateView, whyCannotContain } from '../src/containment/index.js';
import { median } from './support/measure.js';

const PROCESSES = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const CONNECTIONS = 100;

/** Inside: the socket path is the relay's own argument (`address:port=socket`), read from its command line. */
const CLIENT = `const net=require('net'),fs=require('fs');const port=Number(process.argv[2]),n=Number(process.argv[3]);
const relay=fs.readdirSync('/proc').filter(p=>/^\\d+$/.test(p)).map(p=>{try{return fs.readFileSync('/proc/'+p+'/cmdline','utf8').split('\\0')}catch{return []}}).find(a=>/perl|node/.test(a[0]??'')&&a.some(x=>x.endsWith('.sock')));
const sock=relay.find(x=>x.endsWith('.sock')).split('=').pop();
const one=(opts,half)=>new Promise((res,rej)=>{const s=net.connect(opts,()=>{s.write('hello\\n');if(half)s.end()});let got=0;s.on('data',d=>got+=d.length);s.on('end',()=>{s.end();got===2048?res():rej(new Error('got '+got))});s.on('error',rej)});
const time=async(opts,half)=>{const t=process.hrtime.bigint();for(let i=0;i<n;i++)await one(opts,half);return Number(process.hrtime.bigint()-t)/1e6/n};
(async()=>{const out={};out.direct=await time({path:sock});out.relayed=await time({port,host:'127.0.0.1'});out.halfClosed=await time({port,host:'127.0.0.1'},true).catch(()=>-1);console.log(JSON.stringify(out))})().catch(e=>{console.error(e.message);process.exit(1)});`;

async function main(): Promise<void> {
  const why = whyCannotContain();
  if (why) throw new Error(`bench/relayConnection.ts: ${why}`);
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-relay-'));
  const server = createServer((socket) => {
    socket.once('data', () => socket.end(Buffer.alloc(2048, 120)));
    socket.on('error', () => undefined);
  });
  try {
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const sandboxDir = join(root, 'work');
    const homeDir = join(root, 'home');
    await mkdir(sandboxDir, { recursive: true });
    await mkdir(homeDir, { recursive: true });
    await writeFile(join(sandboxDir, 'client.js'), CLIENT);
    const view = candidateView({ hidden: [], sandboxDir, homeDir, readable: [] });
    const figures: Record<string, number[]> = { direct: [], relayed: [], halfClosed: [] };
    const load = loadavg()[0]!.toFixed(1);
    for (let i = 0; i < PROCESSES; i++) {
      const lines: string[] = [];
      const result = await runProcess({
        command: process.execPath,
        args: ['client.js', String(port), String(CONNECTIONS)],
        cwd: sandboxDir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: homeDir },
        timeoutMs: 120_000,
        view,
        forwardPorts: [port],
        onStdoutLine: (line) => lines.push(line),
        onStderrLine: (line) => lines.push(line),
      });
      if (result.exitCode !== 0) throw new Error(`bench/relayConnection.ts: the client failed: ${lines.join('\n')}`);
      const one = JSON.parse(lines.at(-1)!) as Record<string, number>;
      for (const key of Object.keys(figures)) figures[key]!.push(one[key]!);
    }
    const show = (values: number[]) => `${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
    console.log(`${CONNECTIONS} connections a process, ${PROCESSES} processes, load ${load} → ${loadavg()[0]!.toFixed(1)}`);
    console.log(`straight to the host socket: ${show(figures.direct!)}`);
    console.log(`through the inside relay:    ${show(figures.relayed!)}`);
    // -1: a half-closed request got no answer (the relay before it carried half-closes).
    console.log(`the same, client half-closes: ${figures.halfClosed!.includes(-1) ? 'no answer' : show(figures.halfClosed!)}`);
  } finally {
    server.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
