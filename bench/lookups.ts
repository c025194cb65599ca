// Looking at a big history: `runs --batch` (first page), `show RUN`, `batches`, `compare` of two
// 1,000-run batches and `history` (the built CLI, each a whole process) on an embedded store
// seeded with 10,000 and with 100,000 runs, against `node -e 0` alternated in the same run; and
// each command's peak RSS. Twice: when the command opens PGlite itself, and when another process
// holds the store and serves it (docs/store-service.md); and, with a lingering store service,
// the first command (which starts the service) and the next (served by it), with the service's
// RSS. Goals (issue 25): ≤ 5× node start at 10k, ≤ 10× at 100k, peak RSS ≤ 120 MiB.
//
//   node --import tsx bench/lookups.ts            (npm run bench:lookups; 10k and 100k)
//   LOOKUPS_SIZES=10000 node --import tsx bench/lookups.ts
//   LOOKUPS_CLI=dist-b/cli/client.js …   (another build of the CLI, e.g. to compare two)
//   LOOKUPS_COMMANDS=history,compare …     (only the commands whose name starts with one of these)
//   LOOKUPS_WORKSPACE=/tmp/lookups …       (keep each size's seeded store in DIR/SIZE and reuse it next time)
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { row, writeResult, type BenchRow } from './support/benchResult.js';
import { holdStore } from './support/holdStoreProcess.js';
import { median } from './support/measure.js';
import { seededWorkspace } from './support/seedLookups.js';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = (process.env.LOOKUPS_SIZES ?? '10000,100000').split(',').map(Number);
const ONLY = process.env.LOOKUPS_COMMANDS?.split(',').filter(Boolean);
const KEPT = process.env.LOOKUPS_WORKSPACE ? resolve(process.env.LOOKUPS_WORKSPACE) : undefined;
const SERVED_ROUNDS = 5;
const OWN_ROUNDS = 3;
const RSS_GOAL_MIB = 120;
const started = Date.now();

const CLI = process.env.LOOKUPS_CLI ? resolve(process.env.LOOKUPS_CLI) : join(ROOT, 'dist/cli/client.js');
if (!existsSync(CLI)) throw new Error(`bench/lookups.ts: ${CLI} is missing; run \`npm run build\` first`);

interface Sample {
  ms: number;
  rssMiB: number;
}

/** One process under /usr/bin/time: wall time, peak RSS, and its exit code checked against those the command may end with. */
function measure(args: string[], cwd: string, env: NodeJS.ProcessEnv, okCodes: readonly number[] = [0]): Promise<Sample> {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    execFile('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd, env, maxBuffer: 64 * 2 ** 20 }, (err, _stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const code = err ? Number((err as { code?: unknown }).code ?? 1) : 0;
      const lines = stderr.trimEnd().split('\n');
      // /usr/bin/time reports a nonzero exit on a line of its own before the figure.
      const rssKiB = Number(lines.at(-1));
      if (!okCodes.includes(code) || !Number.isFinite(rssKiB)) return fail(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      done({ ms, rssMiB: rssKiB / 1024 });
    });
  });
}

/** The command and `node -e 0` in turns; medians of each, their ratio and the command's highest peak RSS. */
async function lookup(args: string[], cwd: string, env: NodeJS.ProcessEnv, rounds: number, okCodes?: readonly number[]) {
  const subject: Sample[] = [];
  const bare: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    bare.push(await measure(['-e', '0'], cwd, env));
    subject.push(await measure([CLI, ...args], cwd, env, okCodes));
  }
  const ms = median(subject.map((s) => s.ms));
  const baseMs = median(bare.map((s) => s.ms));
  return { ms, baseMs, ratio: ms / baseMs, rssMiB: Math.max(...subject.map((s) => s.rssMiB)) };
}


/** The lingering store service holding `workspace`'s store, if any: its pid and RSS (now and peak, MiB). */
async function lingeringService(workspace: string): Promise<{ pid: number; rssMiB: number; peakMiB: number } | undefined> {
  let pid: number;
  try {
    pid = (JSON.parse(await readFile(join(workspace, '.evalflow/pglite.lock'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { pid, rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Stops the lingering service (SIGTERM) and waits until it has let the store go. */
async function stopService(workspace: string): Promise<void> {
  const service = await lingeringService(workspace);
  if (!service) return;
  process.kill(service.pid, 'SIGTERM');
  while (existsSync(join(workspace, '.evalflow/pglite.lock'))) await new Promise((wait) => setTimeout(wait, 50));
}

/** Each round: no holder; the command (starting the service), then again (served by it); each beside `node -e 0`. */
async function lingering(args: string[], cwd: string, env: NodeJS.ProcessEnv, rounds: number, okCodes?: readonly number[]) {
  const first: Sample[] = [];
  const next: Sample[] = [];
  const bare: Sample[] = [];
  const service: { rssMiB: number; peakMiB: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    await stopService(cwd);
    bare.push(await measure(['-e', '0'], cwd, env));
    first.push(await measure([CLI, ...args], cwd, env, okCodes));
    bare.push(await measure(['-e', '0'], cwd, env));
    next.push(await measure([CLI, ...args], cwd, env, okCodes));
    const held = await lingeringService(cwd);
    if (!held) throw new Error(`${args.join(' ')}: no lingering store service holds the store after it`);
    service.push(held);
  }
  await stopService(cwd);
  const baseMs = median(bare.map((s) => s.ms));
  const of = (samples: Sample[]) => ({ ms: median(samples.map((s) => s.ms)), ratio: median(samples.map((s) => s.ms)) / baseMs, rssMiB: Math.max(...samples.map((s) => s.rssMiB)) });
  return { first: of(first), next: of(next), baseMs, serviceMiB: Math.max(...service.map((s) => s.rssMiB)), servicePeakMiB: Math.max(...service.map((s) => s.peakMiB)) };
}

const rows: BenchRow[] = [];
const notes: string[] = [];

for (const size of SIZES) {
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  const goal = size <= 10_000 ? '<= 5' : '<= 10';
  const workspace = KEPT ? join(KEPT, String(size)) : await mkdtemp(join(tmpdir(), 'evalflow-bench-lookups-'));
  // Without a holder each command opens PGlite itself, unless the lingering mode below.
  const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(workspace, '.evalflow'), EVALFLOW_STORE_LINGER: '0' };
  delete env.DATABASE_URL;
  try {
    const seeded = await seededWorkspace(workspace, size, { kept: KEPT !== undefined, label, notes });
    const mid = Math.floor(seeded.batchIds.length / 2);
    const all: { name: string; args: string[]; okCodes?: number[] }[] = [
      { name: 'runs --batch (first page)', args: ['runs', '--batch', seeded.batchIds[mid]!] },
      { name: 'show RUN', args: ['show', seeded.runId] },
      { name: 'batches', args: ['batches'] },
      // 1: a case regressed, which two seeded batches may well show.
      { name: 'compare of two 1,000-run batches', args: ['compare', seeded.batchIds[mid - 1]!, seeded.batchIds[mid]!], okCodes: [0, 1] },
      { name: 'history', args: ['history'] },
    ];
    const commands = ONLY ? all.filter((c) => ONLY.some((prefix) => c.name.startsWith(prefix))) : all;
    // A first command applies any migration this build adds; it is not what is measured.
    await measure([CLI, 'batches', '--limit', '1'], workspace, env);
    const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
    notes.push(`${label}: load average (1, 5, 15 min) ${load()} before measuring`);
    for (const mode of ['opening PGlite itself', 'served by another process'] as const) {
      const release = mode === 'served by another process' ? await holdStore(ROOT, workspace, env) : undefined;
      try {
        for (const command of commands) {
          const m = await lookup(command.args, workspace, env, release ? SERVED_ROUNDS : OWN_ROUNDS, command.okCodes);
          const what = `${command.name}, ${label} runs, ${mode}`;
          rows.push(row(what, m.ratio, '×', { against: 'node -e 0', goal, detail: `${m.ms.toFixed(0)} ms vs ${m.baseMs.toFixed(0)} ms (medians of ${release ? SERVED_ROUNDS : OWN_ROUNDS})` }));
          rows.push(row(`peak RSS, ${what}`, m.rssMiB, 'MiB', { goal: `<= ${RSS_GOAL_MIB}` }));
          console.log(`  ${what}: ${m.ratio.toFixed(2)}× (${m.ms.toFixed(0)} ms), ${m.rssMiB.toFixed(0)} MiB`);
        }
      } finally {
        await release?.();
      }
      notes.push(`${label}: load average ${load()} after ${mode}`);
    }
    const lingerEnv = { ...env, EVALFLOW_STORE_LINGER: '600' };
    for (const command of commands) {
      const m = await lingering(command.args, workspace, lingerEnv, OWN_ROUNDS, command.okCodes);
      const detail = (s: { ms: number }) => `${s.ms.toFixed(0)} ms vs ${m.baseMs.toFixed(0)} ms (medians of ${OWN_ROUNDS})`;
      for (const [which, sample] of [['first, starting the lingering service', m.first], ['next, served by the lingering service', m.next]] as const) {
        const what = `${command.name}, ${label} runs, ${which}`;
        rows.push(row(what, sample.ratio, '×', { against: 'node -e 0', goal, detail: detail(sample) }));
        rows.push(row(`peak RSS, ${what}`, sample.rssMiB, 'MiB', { goal: `<= ${RSS_GOAL_MIB}` }));
        console.log(`  ${what}: ${sample.ratio.toFixed(2)}× (${sample.ms.toFixed(0)} ms), ${sample.rssMiB.toFixed(0)} MiB`);
      }
      rows.push(row(`RSS of the lingering store service after ${command.name}, ${label} runs`, m.serviceMiB, 'MiB', { detail: `peak ${m.servicePeakMiB.toFixed(0)} MiB` }));
      console.log(`  lingering service after ${command.name}: ${m.serviceMiB.toFixed(0)} MiB (peak ${m.servicePeakMiB.toFixed(0)} MiB)`);
    }
    notes.push(`${label}: load average ${load()} after the lingering service`);
  } finally {
    if (!KEPT) await rm(workspace, { recursive: true, force: true });
  }
}

writeResult({ name: 'lookups', title: 'Look-ups on a big store', rows, notes }, started);
