// `evalflow view` on a big store: the built CLI's viewer started beside a process that holds the
// embedded store (so the viewer is served, as it is beside a running batch), on a store seeded
// with 10,000 and with 100,000 runs (bench/support/seedLookups.ts); timed HTTP GETs of its first
// page (`/`, the dashboard) and of a run's page (`/runs/ID` and the two requests its script
// makes: `/api/runs/ID` and the first page of turns), and the viewer's peak RSS. Goal (issue 25):
// both pages <= 300 ms at 100k. Absolute times: there is no baseline a page could be a ratio of.
//
//   node --import tsx bench/viewPages.ts            (npm run bench:view; 10k and 100k)
//   VIEW_SIZES=10000 node --import tsx bench/viewPages.ts
//   VIEW_CLI=dist-b/cli/client.js …   (another build of the CLI, e.g. to compare two)
//   VIEW_WORKSPACE=/tmp/view …        (keep each size's seeded store in DIR/SIZE and reuse it next time)
//   VIEW_ROUNDS=3 …                   (timed rounds of each page after the first; default 7)
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { storeOptions } from '../src/cli/storeOptions.js';
import { loadSettings } from '../src/config.js';
import { openStore } from '../src/store/index.js';
import { row, writeResult, type BenchRow } from './support/benchResult.js';
import { holdStore } from './support/holdStoreProcess.js';
import { median, nowMs } from './support/measure.js';
import { seededWorkspace } from './support/seedLookups.js';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = (process.env.VIEW_SIZES ?? '10000,100000').split(',').map(Number);
const KEPT = process.env.VIEW_WORKSPACE ? resolve(process.env.VIEW_WORKSPACE) : undefined;
const ROUNDS = Number(process.env.VIEW_ROUNDS ?? 7);
const GOAL_MS = 300;
const started = Date.now();

const CLI = process.env.VIEW_CLI ? resolve(process.env.VIEW_CLI) : join(ROOT, 'dist/cli/client.js');
if (!existsSync(CLI)) throw new Error(`bench/viewPages.ts: ${CLI} is missing; run \`npm run build\` first`);

const rows: BenchRow[] = [];
const notes: string[] = [];
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');


/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.once('error', fail);
  });
}

/** `evalflow view` started in `cwd`; resolves once it prints the URL it serves. */
async function startView(cwd: string, env: NodeJS.ProcessEnv): Promise<{ view: ChildProcess; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const view = spawn(process.execPath, [CLI, 'view', '--port', String(port)], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((ready, fail) => {
    let out = '';
    view.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /evalflow view: (http:\/\/\S+)/.exec(out);
      if (match) ready(match[1]!);
    });
    view.once('exit', (code) => fail(new Error(`evalflow view exited (${code}) before serving: ${out}`)));
  });
  const stop = async () => {
    if (view.exitCode !== null) return;
    view.kill('SIGTERM');
    await new Promise((gone) => view.once('exit', gone));
  };
  return { view, url, stop };
}

/** One GET, read to its end; its status must be 200. */
async function get(url: string): Promise<number> {
  return (await getPage(url)).ms;
}

async function getPage(url: string): Promise<{ ms: number; body: string }> {
  const start = nowMs();
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${body.slice(0, 500)}`);
  return { ms: nowMs() - start, body };
}

/** Asks for `/` every half second until it is the dashboard as of now (neither being built nor marked stale); the time that took. */
async function untilCurrent(firstPage: string): Promise<number> {
  const start = nowMs();
  for (;;) {
    const { body } = await getPage(firstPage);
    if (!body.includes('id="dashboard-building"') && !body.includes('id="dashboard-stale"')) return nowMs() - start;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The peak resident set of a live process (VmHWM), in MiB. */
async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

function report(what: string, samples: readonly number[], extra: string): void {
  const ms = median(samples);
  const detail = `median of ${samples.length}, ${Math.min(...samples).toFixed(0)}–${Math.max(...samples).toFixed(0)} ms${extra}`;
  rows.push(row(what, ms, 'ms', { goal: `<= ${GOAL_MS}`, detail }));
  console.log(`  ${what}: ${ms.toFixed(0)} ms (${detail})`);
}

for (const size of SIZES) {
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  const workspace = KEPT ? join(KEPT, String(size)) : await mkdtemp(join(tmpdir(), 'evalflow-bench-view-'));
  const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(workspace, '.evalflow'), EVALFLOW_STORE_LINGER: '0' };
  delete env.DATABASE_URL;
  try {
    const seeded = await seededWorkspace(workspace, size, { kept: KEPT !== undefined, label, notes });
    // A command that writes applies any migration this build adds (the viewer never migrates).
    await new Promise<void>((done, fail) => execFile(process.execPath, [CLI, 'batches', '--limit', '1'], { cwd: workspace, env }, (err) => (err ? fail(err) : done())));
    notes.push(`${label}: load average (1, 5, 15 min) ${load()} before measuring`);
    const release = await holdStore(ROOT, workspace, env);
    try {
      const startedAt = nowMs();
      const { view, url, stop } = await startView(workspace, env);
      try {
        const serving = nowMs() - startedAt;
        const runPath = encodeURIComponent(seeded.runId);
        const firstPage = `${url}/`;
        // The page and what its script fetches before it shows anything: the run, then its first turns.
        const runPage = [`${url}/runs/${runPath}`, `${url}/api/runs/${runPath}`, `${url}/api/runs/${runPath}/transcript?page=0&turns=10`];
        const coldFirst = await get(firstPage);
        // The viewer builds the dashboard at its start; the timed rounds are of the page it keeps.
        const firstBuilt = serving + (await untilCurrent(firstPage));
        const getRunPage = async () => {
          let sum = 0;
          for (const page of runPage) sum += await get(page);
          return sum;
        };
        const coldRun = await getRunPage();
        const first: number[] = [];
        const run: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          first.push(await get(firstPage));
          run.push(await getRunPage());
        }
        // A write (as a running batch makes them every few seconds): the next first page builds the dashboard anew.
        const writer = await openStore(storeOptions(await loadSettings(workspace, env)));
        await writer.upsertBatch({ batch_id: 'batch-view-bench-write', status: 'running', spec: {}, counts: {} }).finally(() => writer.close());
        const afterWrite = await getPage(firstPage);
        const shownStale = afterWrite.body.includes('id="dashboard-stale"');
        const rebuilt = await untilCurrent(firstPage);
        rows.push(row(`first page (/) after a write, ${label} runs, served`, afterWrite.ms, 'ms', { goal: `<= ${GOAL_MS}`, detail: `one GET; ${shownStale ? 'the page built before, marked stale, while the dashboard is built anew' : 'the dashboard built anew within the wait'}; the page showed the write ${rebuilt.toFixed(0)} ms later` }));
        console.log(`  first page after a write, ${label} runs: ${afterWrite.ms.toFixed(0)} ms (${shownStale ? 'stale' : 'current'}); current ${rebuilt.toFixed(0)} ms later`);
        report(`first page (/), ${label} runs, served`, first, `; the first GET after start ${coldFirst.toFixed(0)} ms; the viewer served ${serving.toFixed(0)} ms after its start, its dashboard built ${firstBuilt.toFixed(0)} ms after its start`);
        report(`run page (/runs/ID, /api/runs/ID, first turns), ${label} runs, served`, run, `; the first after start ${coldRun.toFixed(0)} ms`);
        const rss = await peakRssMiB(view.pid!);
        rows.push(row(`peak RSS of evalflow view, ${label} runs, served`, rss, 'MiB'));
        console.log(`  peak RSS of evalflow view, ${label} runs: ${rss.toFixed(0)} MiB`);
      } finally {
        await stop();
      }
    } finally {
      await release();
    }
    notes.push(`${label}: load average ${load()} after measuring`);
  } finally {
    if (!KEPT) await rm(workspace, { recursive: true, force: true });
  }
}

writeResult({ name: 'view-pages', title: '`evalflow view` pages on a big store', rows, notes }, started);
