// Candidate containment (bubblewrap, `isolation: sandbox`) against the same work uncontained
// (`isolation: none`), in the same process, alternated round by round:
// (a) A process start: `/bin/true` through runProcess with a candidate's view and without,
//     and the same with a host loopback port relayed in (a small relay starts inside: Perl's, Node's without Perl),
//     the three rotated in every round. Reported (ms each), and the relay's own part.
// (b) A candidate turn's process: bash writing a few files and running `git status` in a clone
//     of a generated repository of a few thousand files. Reported (ratio).
// (c) A whole run of each example case: prepare, setup (preconditions), three candidate turns
//     of a `command` candidate doing (b)'s work, verify (postconditions), cleanup and record,
//     the candidate's spec saying `isolation: sandbox` or `none`. Goal ≤ 1.05×, on the geometric
//     mean of each contained run's time over its uncontained pair's, with a bootstrap interval.
//
//   node --import tsx bench/isolation.ts [--quick]
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createActivities, type ActivityDeps } from '../src/activities/index.js';
import { createCandidateFactory, runProcess, type ProcessRequest } from '../src/candidates/index.js';
import { candidateView, privatePlaces, whyCannotContain, type SandboxView } from '../src/containment/index.js';
import type { Isolation } from '../src/vocabulary/isolation.js';
import { loadEvalBank } from '../src/evalset/index.js';
import { toCaseSnapshot } from '../src/run/caseSnapshot.js';
import { ensureProjectRepo } from '../src/sandbox/projectRepo.js';
import { openStore, type Store } from '../src/store/index.js';
import { shellQuote } from '../src/containment/relay.js';
import { row, writeResult, type BenchRow } from './support/benchResult.js';
import { exampleRunSpec, finishUnjudged } from './support/exampleRun.js';
import { median, timeMs } from './support/measure.js';
import { bootstrapMean } from '../src/stats/bootstrap.js';

const REPO = resolve(import.meta.dirname, '..');
const QUICK = process.argv.includes('--quick');
const START_ROUNDS = QUICK ? 15 : 30;
const TURN_ROUNDS = QUICK ? 8 : 15;
// Whole runs differ by a few percent while one run's time varies by tens of percent: enough
// pairs for the interval below to say whether the goal is met (ISOLATION_RUN_ROUNDS overrides).
const RUN_ROUNDS = QUICK ? 1 : Number(process.env.ISOLATION_RUN_ROUNDS ?? 8);
const TURNS = 3;
const FILES = 3_000;
const started = Date.now();
const loadAtStart = loadavg()[0]!.toFixed(1);

/** What a turn does in the sandbox: a few edits, then a look at the tree, as an agent's tools would. */
const TURN_SCRIPT = 'for i in 1 2 3 4 5; do echo "edit $i" > "note-$i.txt"; done; echo changed > README.md; git status --porcelain > /dev/null';

async function main(): Promise<void> {
  const why = whyCannotContain();
  if (why) throw new Error(`bench/isolation.ts: ${why}`);
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-isolation-'));
  const store = await openStore({});
  try {
    const host = await layOutHost(root);
    try {
      const start = await startCost(host);
      const turn = await turnCost(host);
      const run = await runCost(root, store);
      writeResult({ name: 'isolation', title: 'Candidate containment', rows: [...start, ...turn, ...run.rows], notes: [...run.notes, `load average (1 min) at start ${loadAtStart}, at end ${loadavg()[0]!.toFixed(1)}`] }, started);
    } finally {
      await host.close();
    }
  } finally {
    await store.close();
    await rm(root, { recursive: true, force: true });
  }
}

interface Host {
  sandboxDir: string;
  view: SandboxView;
  port: number;
  close(): Promise<void>;
}

/** A host laid out as a worker's is (HOME, state, runs, project, sandbox root), the view hiding all of it but the run's clone and HOME. */
async function layOutHost(root: string): Promise<Host> {
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  const project = join(workspace, 'project');
  const sandboxRoot = join(root, 'sandboxes');
  const sandboxDir = join(sandboxRoot, 'run-1', 'work');
  const homeDir = join(sandboxRoot, 'run-1', 'home');
  for (const dir of [home, project, join(workspace, '.evalflow'), join(workspace, 'runs'), join(workspace, 'eval_sets', 'case'), homeDir]) await mkdir(dir, { recursive: true });
  await generateRepo(project, FILES);
  execFileSync('git', ['clone', '-q', project, sandboxDir]);
  const hidden = privatePlaces({
    env: { HOME: home },
    stateDir: join(workspace, '.evalflow'),
    sandboxRoot,
    workspaceDir: workspace,
    runsDir: join(workspace, 'runs'),
    project,
    workflowDir: join(workspace, 'workflow'),
    caseDir: join(workspace, 'eval_sets', 'case'),
  });
  // Stands for the model server a relayed port reaches.
  const server: Server = createServer((socket) => socket.end('ok\n'));
  const port = await new Promise<number>((done) => server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port)));
  return {
    sandboxDir,
    view: candidateView({ hidden, sandboxDir, homeDir, readable: [] }),
    port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function generateRepo(dir: string, files: number): Promise<void> {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `pkg${i % 30}`, `mod${Math.floor(i / 30) % 10}`);
    if (i < 300) await mkdir(sub, { recursive: true });
    await writeFile(join(sub, `file${i}.ts`), `export const value${i} = ${i};\n`);
  }
  await writeFile(join(dir, 'README.md'), 'a generated project\n');
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'generated'], { cwd: dir });
}

/** One process through evalflow's runner, as a candidate's are started; a failure is the bench's, not a figure. */
async function run(request: Omit<ProcessRequest, 'timeoutMs'>): Promise<void> {
  const result = await runProcess({ ...request, timeoutMs: 30_000 });
  if (result.exitCode !== 0) throw new Error(`bench/isolation.ts: ${request.command} ${request.args.join(' ')} ${request.view ? 'contained' : 'uncontained'}: ${result.spawnError ?? `exit ${result.exitCode}`}\n${result.stderrTail}`);
}

/** Per side, the times of `rounds` alternated runs, the side that goes first swapped each round (`a` first when `first + i` is even). */
async function alternated(a: () => Promise<unknown>, b: () => Promise<unknown>, rounds: number, first = 0): Promise<{ a: number[]; b: number[] }> {
  const times = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    if ((first + i) % 2 === 0) {
      times.a.push(await timeMs(a));
      times.b.push(await timeMs(b));
    } else {
      times.b.push(await timeMs(b));
      times.a.push(await timeMs(a));
    }
  }
  return times;
}

/** `median (min–max)` of times in ms. */
function spread(values: number[], digits = 1): string {
  return `${median(values).toFixed(digits)} ms (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

/** Ratios of the rounds, subject over baseline, as `min–max`. */
function ratioSpread(subject: number[], baseline: number[]): string {
  const ratios = subject.map((s, i) => s / baseline[i]!);
  return `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
}

async function startCost(host: Host): Promise<BenchRow[]> {
  const base = { command: '/bin/true', args: [], cwd: host.sandboxDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } };
  const sides = [() => run(base), () => run({ ...base, view: host.view }), () => run({ ...base, view: host.view, forwardPorts: [host.port] })];
  for (const warm of sides) await warm();
  // The three sides in every round, the order rotated from one round to the next.
  const times: number[][] = [[], [], []];
  for (let i = 0; i < START_ROUNDS; i++) {
    for (let k = 0; k < 3; k++) {
      const side = (i + k) % 3;
      times[side]!.push(await timeMs(sides[side]!));
    }
  }
  const [bare, contained, relayed] = times as [number[], number[], number[]];
  const relayOwn = relayed.map((r, i) => r - contained[i]!);
  return [
    row('process start, /bin/true, uncontained', median(bare), 'ms', { detail: `runProcess without a view: ${spread(bare)}, median (min–max) of ${START_ROUNDS}` }),
    row('process start, /bin/true, contained', median(contained), 'ms', { detail: `bubblewrap with a candidate's view: ${spread(contained)}, ${(median(contained) / median(bare)).toFixed(2)}× uncontained in the same ${START_ROUNDS} rounds` }),
    row('process start, /bin/true, contained with a port relayed', median(relayed), 'ms', {
      detail: `one host loopback port relayed in (the relay starts inside first, listening before the command): ${spread(relayed)}; the relay's own part (relayed − contained, round by round) median ${median(relayOwn).toFixed(1)} ms; the three sides rotated in each of ${START_ROUNDS} rounds`,
    }),
  ];
}

async function turnCost(host: Host): Promise<BenchRow[]> {
  const base = { command: 'bash', args: ['-c', TURN_SCRIPT], cwd: host.sandboxDir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' } };
  const bare = () => run(base);
  const contained = () => run({ ...base, view: host.view });
  await bare();
  await contained();
  const m = await alternated(contained, bare, TURN_ROUNDS);
  const ratio = median(m.a) / median(m.b);
  return [
    row(`a turn's process, file writes and git status, ${FILES} files`, ratio, '×', {
      against: 'the same uncontained',
      detail: `${spread(m.a)} vs ${spread(m.b)}, medians (min–max) of ${TURN_ROUNDS} alternated; round ratios ${ratioSpread(m.a, m.b)}`,
    }),
  ];
}

async function runCost(root: string, store: Store): Promise<{ rows: BenchRow[]; notes: string[] }> {
  await cp(join(REPO, 'examples/project'), join(root, 'project'), { recursive: true });
  await cp(join(REPO, 'examples/workflow'), join(root, 'workflow'), { recursive: true });
  const stateDir = join(root, '.evalflow');
  // A file of the user's project, which a contained candidate must not see.
  const secret = join(root, 'project', 'package.json');
  const agent = join(root, 'agent', 'turn.sh');
  await mkdir(join(root, 'agent'), { recursive: true });
  await writeFile(agent, `#!/usr/bin/env bash\nset -eu\ncat > /dev/null\n${TURN_SCRIPT.replace('note-$i', 'note-$EVALFLOW_TURN-$i')}\nif [ -e ${shellQuote(secret)} ]; then seen=seen; else seen=hidden; fi\necho "turn $EVALFLOW_TURN done; the project $seen"\n`, { mode: 0o755 });
  const bank = await loadEvalBank([join(REPO, 'eval_sets')]);
  const cases = bank.cases.map(toCaseSnapshot);
  const env = { PATH: process.env.PATH };
  const llmFor = () => ({ chat: () => Promise.reject(new Error('no model in this benchmark')) });
  const deps: ActivityDeps = {
    store,
    hostId: 'bench-host',
    stateDir,
    sandboxRoot: join(root, 'sandboxes'),
    llmFor,
    candidates: createCandidateFactory({ env, llmFor }),
    env,
    log: { info: () => undefined, warn: () => undefined },
    now: () => new Date(),
    version: 'bench',
  };
  const activities = createActivities(deps);
  await ensureProjectRepo(join(root, 'project'), stateDir);
  let serial = 0;

  const oneRun = async (evalCase: (typeof cases)[number], isolation: Isolation) => {
    const spec = exampleRunSpec(root, evalCase, serial++, { name: 'bench', adapter: 'command', args: [agent], env: {}, isolation });
    await activities.prepareRun(spec);
    await activities.setupSandbox({ spec });
    let session = null;
    for (let turn = 1; turn <= TURNS; turn++) {
      const out = await activities.candidateTurn({ spec, turn, message: `turn ${turn}`, session });
      if (out.failure) throw new Error(`bench/isolation.ts: ${spec.runId} (${isolation}) turn ${turn} failed: ${out.failure}`);
      session = out.session;
    }
    const postconditions = await activities.verifyRun(spec);
    await finishUnjudged(activities, spec, postconditions, TURNS, 'notes only');
    return spec.runId;
  };

  // Uncontained checks inherit the worker's environment, contained ones get PATH, LANG and HOME
  // only: a variable that makes every Node start dearer (NODE_EXTRA_CA_CERTS loads its CA
  // bundle at start) would be counted as containment's gain on the checks' `node --test`.
  const dropped = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'].filter((name) => process.env[name] !== undefined);
  for (const name of dropped) delete process.env[name];

  // Warm (the project import, the pool's first clone, the first checks), and proof that each side ran as its spec says.
  for (const isolation of ['none', 'sandbox'] as const) {
    const runId = await oneRun(cases[0]!, isolation);
    const reply = (await store.getTranscript(runId)).filter((e) => e.role === 'candidate').at(-1)?.content ?? '';
    const expected = isolation === 'sandbox' ? 'hidden' : 'seen';
    if (!reply.includes(`the project ${expected}`)) throw new Error(`bench/isolation.ts: isolation ${isolation}: the candidate's last reply was "${reply}", expected the project ${expected}`);
  }
  // Run by run, the two sides alternated, which goes first swapped from one run to the next; summed per round over the cases.
  const contained: number[] = [];
  const bare: number[] = [];
  const perCase = new Map<string, { a: number[]; b: number[] }>();
  for (let round = 0; round < RUN_ROUNDS; round++) {
    let a = 0;
    let b = 0;
    for (const [i, evalCase] of cases.entries()) {
      const m = await alternated(() => oneRun(evalCase, 'sandbox'), () => oneRun(evalCase, 'none'), 1, round + i);
      a += m.a[0]!;
      b += m.b[0]!;
      const entry = perCase.get(evalCase.id) ?? { a: [], b: [] };
      entry.a.push(m.a[0]!);
      entry.b.push(m.b[0]!);
      perCase.set(evalCase.id, entry);
    }
    contained.push(a);
    bare.push(b);
  }
  const roundsRatio = median(contained) / median(bare);
  const runRatios = [...perCase.values()].flatMap((m) => m.a.map((a, i) => a / m.b[i]!));
  // Each contained run against its own pair (same case, same moment): the geometric mean of the
  // pairs' ratios, with a bootstrap interval over the pairs, is what the goal is judged on.
  const logs = bootstrapMean(runRatios.map((r) => Math.log(r)))!;
  const [ratio, low, high] = [logs.mean, logs.low, logs.high].map((v) => Math.exp(v)) as [number, number, number];
  const runMs = (values: number[]) => median(values) / cases.length;
  return {
    rows: [
      row(`a whole run, ${TURNS} candidate turns, ${cases.length} example cases`, ratio, '×', {
        against: 'the same runs with isolation: none',
        goal: '<= 1.05',
        detail: `geometric mean of the ${runRatios.length} runs' own ratios (each against its pair, run by run alternated), 95% interval ${low.toFixed(2)}–${high.toFixed(2)}, the ratios ${Math.min(...runRatios).toFixed(2)}–${Math.max(...runRatios).toFixed(2)}; by rounds: ${runMs(contained).toFixed(0)} ms vs ${runMs(bare).toFixed(0)} ms a run, medians of ${RUN_ROUNDS} rounds of every case, ${roundsRatio.toFixed(2)}×, round ratios ${ratioSpread(contained, bare)}`,
      }),
    ],
    notes: [
      `per case, contained vs none (ms a run): ${[...perCase].map(([id, m]) => `${id} ${median(m.a).toFixed(0)} vs ${median(m.b).toFixed(0)}`).join(', ')}`,
      'the example cases have no setup commands or cleanup: the processes a run spawns are its checks and the candidate turns',
      ...(dropped.length > 0 ? [`left out of the worker's environment for the whole runs, as a contained check never has them: ${dropped.join(', ')}`] : []),
    ],
  };
}

await main();
