// Looking at a big history: `runs --batch` (first page), `show RUN`, `batches`, `compare` of two
// 1,000-run batches and `history` (the built CLI, each a whole process) on an embedded store
// seeded with 10,000 and with 100,000 runs, against `node -e 0` alternated in the same run; and
// each command's peak RSS. Twice: when the command opens PGlite itself, and when another process
// holds the store and serves it (docs/store-service.md). Goals (issue 25): ≤ 5× node start at
// 10k, ≤ 10× at 100k, peak RSS ≤ 120 MiB.
//
//   node --import tsx bench/lookups.ts            (npm run bench:lookups; 10k and 100k)
//   LOOKUPS_SIZES=10000 node --import tsx bench/lookups.ts
//   LOOKUPS_CLI=dist-b/cli/client.js …   (another build of the CLI, e.g. to compare two)
//   LOOKUPS_COMMANDS=history,compare …     (only the commands whose name starts with one of these)
//   LOOKUPS_WORKSPACE=/tmp/lookups …       (keep each size's seeded store in DIR/SIZE and reuse it next time)
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
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


const rows: BenchRow[] = [];
const notes: string[] = [];

for (const size of SIZES) {
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  const goal = size <= 10_000 ? '<= 5' : '<= 10';
  const workspace = KEPT ? join(KEPT, String(size)) : await mkdtemp(join(tmpdir(), 'evalflow-bench-lookups-'));
  const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(workspace, '.evalflow') };
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
  } finally {
    if (!KEPT) await rm(workspace, { recursive: true, force: true });
  }
}

writeResult({ name: 'lookups', title: 'Look-ups on a big store', rows, notes }, started);
