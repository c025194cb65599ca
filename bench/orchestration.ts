// 1 and 2. Orchestration: 200 runs × 8 stages at parallelism 50 through the real
// evalBatchWorkflow / evalRunWorkflow (on evalflow's own worker tuning) with every stage
// activity replaced by a stub that sleeps, against (a) a bare in-process promise pool doing
// the same sleeps and (b) naive Temporal (one workflow per run, one activity per stage,
// default worker options, 50 workflows kept running by the client), on our dev server and on
// team mode's PostgreSQL-backed server.
// Also: each stage's own cost for one run alone (instant stubs), and the fraction of time
// the 50 run slots spend inside a stage, with one worker and with two; and the CPU a run costs
// the worker and the server, against naive Temporal (`--alone`: only these and the run alone).
//
//   node --import tsx bench/orchestration.ts [--quick] [--stage-ms=N | --alone] [--dev-only | --postgres-only] [--trace]
//   (EVALFLOW_BENCH_TUNING='{"workflowThreadPoolSize":2}' tries worker options on top of evalflow's own)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context as activityContext } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import type { Activities } from '../src/activities/index.js';
import type { BatchInput } from '../src/run/batchInput.js';
import { hostTaskQueue, SHARED_TASK_QUEUE } from '../src/temporal/names.js';
import { installQuietRuntime } from '../src/temporal/runtime.js';
import { workflowBundle } from '../src/temporal/workflowBundle.js';
import { WORKER_TUNING } from '../src/temporal/workerTuning.js';
import { freeTeamPorts, startTestTemporal } from '../test/support/temporalServer.js';
import { postgresUrl, rawPostgres } from '../test/support/postgres.js';
import { stubRunActivities, stubRunSpec } from '../test/support/stubStages.js';
import { locateTeamBinaries, startTeamServer } from '../src/temporal/teamServer.js';
import { teamDatabaseOf } from '../src/temporal/teamSchema.js';
import { row, writeResult, type BenchRow } from './support/benchResult.js';
import { median, nowMs } from './support/measure.js';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 40 : 200;
const STAGES = 8;
const PARALLELISM = 50;
const started = Date.now();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Time spent inside stages, summed over runs: the busy part of the run slots. */
class SlotMeter {
  busyMs = 0;
  /** Each run's stages as they ran: name, start and end (ms). */
  readonly runs = new Map<string, { name: string; start: number; end: number }[]>();
  /** `runId` defaults to the workflow of the activity running the stage. */
  async stage<T>(ms: number, value: T, name = 'stage', runId = activityContext.current().info.workflowExecution?.workflowId ?? 'outside a workflow'): Promise<T> {
    const start = nowMs();
    if (ms > 0) await sleep(ms);
    const end = nowMs();
    this.busyMs += end - start;
    const stages = this.runs.get(runId) ?? [];
    stages.push({ name, start, end });
    this.runs.set(runId, stages);
    return value;
  }

  /**
   * Where the slots' idle time went, for one batch from `start` to `end` (ms): inside the
   * runs, between one stage's end and the next one's start (ms per run, by the stage that
   * follows); while the batch started its first runs and after each slot's last run ended
   * (ms per slot); and between one run's last stage and the next run's first in a slot (ms
   * per hand-over).
   */
  breakdown(slots: number, start: number, end: number): Record<string, number> {
    const gaps = new Map<string, number>();
    let inside = 0;
    const runs = [...this.runs.values()].map((stages) => stages.sort((a, b) => a.start - b.start));
    for (const stages of runs) {
      for (let i = 1; i < stages.length; i++) {
        const key = `before ${stages[i]!.name}`;
        gaps.set(key, (gaps.get(key) ?? 0) + stages[i]!.start - stages[i - 1]!.end);
      }
      inside += stages.at(-1)!.end - stages[0]!.start;
    }
    const firsts = runs.map((stages) => stages[0]!.start).sort((a, b) => a - b).slice(0, slots);
    const lasts = runs.map((stages) => stages.at(-1)!.end).sort((a, b) => b - a).slice(0, slots);
    const starting = firsts.reduce((sum, t) => sum + t - start, 0);
    const ending = lasts.reduce((sum, t) => sum + end - t, 0);
    const handOvers = Math.max(1, runs.length - slots);
    return {
      ...Object.fromEntries([...gaps].map(([key, ms]) => [key, ms / runs.length])),
      'batch start (per slot)': starting / slots,
      'between runs (per hand-over)': (slots * (end - start) - inside - starting - ending) / handOvers,
      'batch end (per slot)': ending / slots,
    };
  }

  /** The breakdown as text, e.g. `before candidateTurn 96, …, between runs (per hand-over) 310`. */
  idleText(slots: number, start: number, end: number): string {
    return Object.entries(this.breakdown(slots, start, end))
      .map(([where, ms]) => `${where} ${ms.toFixed(0)}`)
      .join(', ');
  }
}

/**
 * The eight sleeping stages of a run on host `host` (prepare, setup, examiner, candidate,
 * verify, judge, cleanup, record), and the batch's planning and bookkeeping, instant.
 */
function stubActivities(stageMs: number, meter: SlotMeter, host: string): Partial<Activities> {
  return {
    ...stubRunActivities(host, (name, value) => meter.stage(stageMs, value, name)),
    planBatch: async () => ({ total: RUNS_NOW.total }),
    planRuns: async ({ offset, limit, stamp }) => Array.from({ length: Math.max(0, Math.min(limit, RUNS_NOW.total - offset)) }, (_, i) => stubRunSpec(`${stamp}-${offset + i}`)),
    updateBatchCounts: async () => undefined,
    closeBatch: async () => undefined,
  };
}

/** How many runs the stub planner hands out (changed between the batch and the single run). */
const RUNS_NOW = { total: RUNS };

function batchInput(batchId: string): BatchInput {
  return {
    batchId,
    stamp: batchId,
    selection: { paths: ['bench'], runsPerCase: 1, digest: 'bench' },
    template: { candidate: { name: 'bench', adapter: 'command', args: [], env: {} }, examiner: { model: 'm' }, judge: { model: 'm' }, project: '/nowhere', workflowDir: '/nowhere', runsDir: '/nowhere', turnTimeoutS: 60 },
    parallelism: PARALLELISM,
    total: null,
    offset: 0,
    counts: { finished: 0, passed: 0, failed: 0 },
    recent: [],
  } as BatchInput;
}

interface Server {
  name: string;
  address: string;
  /** The server's process, for its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

/** CPU time (user + system) a process has used so far, from /proc. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  // utime and stime are fields 14 and 15 of stat (12 and 13 after the command name), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU spent by this process (worker and bench) and the server while `job` runs. */
async function cpuDuring(pid: number, job: () => Promise<unknown>): Promise<{ ownMs: number; serverMs: number }> {
  const own = process.cpuUsage();
  const server = processCpuMs(pid);
  await job();
  const used = process.cpuUsage(own);
  return { ownMs: (used.user + used.system) / 1000, serverMs: processCpuMs(pid) - server };
}

/** Our dev server, and the PostgreSQL-backed server of team mode on a throwaway database. */
const SERVERS: { name: string; start(): Promise<Server> }[] = [
  { name: 'dev server', start: async () => ({ name: 'dev server', ...(await startTestTemporal()) }) },
  {
    name: 'PostgreSQL server',
    async start() {
      const database = `evalflow_bench_${randomBytes(4).toString('hex')}`;
      const url = new URL(await postgresUrl());
      url.pathname = `/${database}`;
      const dir = await mkdtemp(join(tmpdir(), 'evalflow-bench-team-'));
      const { port, uiPort } = await freeTeamPorts();
      const server = await startTeamServer({ binaries: await locateTeamBinaries(() => undefined), database: teamDatabaseOf(url.toString()), dir, port, uiPort, namespace: 'default', say: () => undefined });
      return {
        name: 'PostgreSQL server',
        address: server.address,
        pid: server.pid,
        async stop() {
          await server.stop();
          for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

async function main(): Promise<void> {
  installQuietRuntime();
  const bundle = await workflowBundle(process.env);
  const naiveBundle = await bundleWorkflowCode({ workflowsPath: new URL('./support/naive/workflows.ts', import.meta.url).pathname, logger: new DefaultLogger('WARN') });
  const rows: BenchRow[] = [];
  const notes: string[] = [`${RUNS} runs × ${STAGES} stages, parallelism ${PARALLELISM}`];
  const bareMeasured = new Map<number, { ms: number; busyMs: number }>();
  const only = process.argv.find((arg) => arg.startsWith('--stage-ms='));
  const servers = process.argv.includes('--dev-only') || process.argv.includes('--trace') ? SERVERS.slice(0, 1) : process.argv.includes('--postgres-only') ? SERVERS.slice(1) : SERVERS;
  for (const spec of servers) {
    let server: Server;
    try {
      server = await spec.start();
    } catch (err) {
      rows.push(row(`evalflow on the ${spec.name}, 1 s stages`, null, '×', { goal: '<= 1.1', detail: `not measured: ${err instanceof Error ? err.message : String(err)}` }));
      continue;
    }
    // The 100 ms stages measure throughput under load; on the second server only the goal's 1 s stages run.
    const stageTimes = process.argv.includes('--trace') || process.argv.includes('--alone') ? [] : only ? [Number(only.split('=')[1])] : QUICK ? [100] : spec.name === 'dev server' ? [1000, 100] : [1000];
    try {
      rows.push(...(await measureOn(server, stageTimes, bundle, naiveBundle, bareMeasured)));
    } catch (err) {
      console.error(err);
      process.exitCode = 1;
    } finally {
      await server.stop();
    }
  }
  writeResult({ name: 'orchestration', title: 'Orchestration', rows, notes }, started);
}

async function measureOn(
  server: Server,
  stageTimes: number[],
  bundle: Awaited<ReturnType<typeof workflowBundle>>,
  naiveBundle: Awaited<ReturnType<typeof bundleWorkflowCode>>,
  bareMeasured: Map<number, { ms: number; busyMs: number }>,
): Promise<BenchRow[]> {
  const temporal = server;
  const nativeConnection = await NativeConnection.connect({ address: temporal.address });
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({ connection });
  let serial = 0;

  /**
   * evalflow: the batch workflow over `runs` runs, on `workers` worker pairs (shared + host
   * queue); `repeat` batches one after another on the same workers, each one timed.
   */
  const evalflow = async (stageMs: number, runs: number, workers: number, repeat = 1) => {
    const meter = new SlotMeter();
    const hosts = Array.from({ length: workers }, (_, i) => `bench-host-${i}`);
    const created = [];
    const extra: NativeConnection[] = [];
    for (const [index, host] of hosts.entries()) {
      // A second worker is a second client of the server, as a second machine would be.
      const connection = index === 0 ? nativeConnection : await NativeConnection.connect({ address: temporal.address });
      if (index > 0) extra.push(connection);
      // EVALFLOW_BENCH_TUNING (JSON worker options) tries other settings on top of evalflow's own.
      const common = { connection, activities: stubActivities(stageMs, meter, host), ...WORKER_TUNING, ...(JSON.parse(process.env.EVALFLOW_BENCH_TUNING ?? '{}') as object) };
      created.push(await Worker.create({ ...common, taskQueue: SHARED_TASK_QUEUE, workflowBundle: bundle }));
      created.push(await Worker.create({ ...common, taskQueue: hostTaskQueue(host) }));
    }
    RUNS_NOW.total = runs;
    const times: number[] = [];
    let first = 0;
    const batches = async () => {
      for (let i = 0; i < repeat; i++) {
        const batchId = `bench-batch-${process.pid}-${serial++}`;
        const start = nowMs();
        first ||= start;
        await client.workflow.execute('evalBatchWorkflow', { workflowId: batchId, taskQueue: SHARED_TASK_QUEUE, args: [batchInput(batchId)] });
        times.push(nowMs() - start);
      }
    };
    const done = batches();
    await Promise.all(created.map((w) => w.runUntil(done)));
    for (const connection of extra) await connection.close();
    const ms = times.reduce((a, b) => a + b, 0);
    // Read only where a row reports it, so the CPU measurements do not include it.
    return { ms, busyMs: meter.busyMs, times, idle: () => meter.idleText(Math.min(PARALLELISM, runs), first, first + ms) };
  };

  /** Naive Temporal: one workflow per run, default worker, the client keeping 50 running. */
  const naive = async (stageMs: number, runs: number, repeat = 1) => {
    const meter = new SlotMeter();
    const taskQueue = `bench-naive-${serial++}`;
    const worker = await Worker.create({ connection: nativeConnection, taskQueue, workflowBundle: naiveBundle, activities: { stage: () => meter.stage(stageMs, undefined) } });
    const times: number[] = [];
    let first = 0;
    const rounds = async () => {
      for (let r = 0; r < repeat; r++) {
        const start = nowMs();
        first ||= start;
        await pool(runs, Math.min(PARALLELISM, runs), (i) => client.workflow.execute('naiveRunWorkflow', { workflowId: `${taskQueue}-${r}-${i}`, taskQueue, args: [STAGES] }));
        times.push(nowMs() - start);
      }
    };
    await worker.runUntil(rounds());
    const ms = times.reduce((a, b) => a + b, 0);
    // Read only where a row reports it, so the CPU measurements do not include it.
    return { ms, busyMs: meter.busyMs, times, idle: () => meter.idleText(Math.min(PARALLELISM, runs), first, first + ms) };
  };

  /** The floor: a promise pool of 50 doing the same sleeps. */
  const bare = async (stageMs: number, runs: number) => {
    const meter = new SlotMeter();
    const start = nowMs();
    await pool(runs, Math.min(PARALLELISM, runs), async (run) => {
      for (let s = 0; s < STAGES; s++) await meter.stage(stageMs, undefined, 'stage', `bare-${run}`);
    });
    return { ms: nowMs() - start, busyMs: meter.busyMs };
  };

  const rows: BenchRow[] = [];
  const on = server.name;
  try {
    // Warm-up: bundles loaded, the server's namespace cache filled.
    await evalflow(0, 5, 1);
    await naive(0, 5);

    for (const stageMs of stageTimes) {
      const b = bareMeasured.get(stageMs) ?? (await bare(stageMs, RUNS));
      bareMeasured.set(stageMs, b);
      const n = await naive(stageMs, RUNS);
      const e = await evalflow(stageMs, RUNS, 1);
      const e2 = await evalflow(stageMs, RUNS, 2);
      const label = `${stageMs >= 1000 ? `${stageMs / 1000} s` : `${stageMs} ms`} stages`;
      rows.push(row(`evalflow on the ${on}, ${label}`, e.ms / b.ms, '×', { against: 'a bare promise pool', goal: '<= 1.1', detail: `${(e.ms / 1000).toFixed(1)} s vs ${(b.ms / 1000).toFixed(1)} s` }));
      rows.push(row(`naive Temporal on the ${on}, ${label}`, n.ms / b.ms, '×', { against: 'a bare promise pool', detail: `${(n.ms / 1000).toFixed(1)} s` }));
      rows.push(row(`slot utilization on the ${on}, 1 worker, ${label}`, e.busyMs / (Math.min(PARALLELISM, RUNS) * e.ms), 'share', { goal: '>= 0.95', detail: `bare pool ${(b.busyMs / (Math.min(PARALLELISM, RUNS) * b.ms)).toFixed(3)}, naive ${(n.busyMs / (Math.min(PARALLELISM, RUNS) * n.ms)).toFixed(3)}; idle ms: ${e.idle()} (naive: ${n.idle()})` }));
      rows.push(row(`slot utilization on the ${on}, 2 workers, ${label}`, e2.busyMs / (Math.min(PARALLELISM, RUNS) * e2.ms), 'share', { goal: '>= 0.95', detail: `${(e2.ms / 1000).toFixed(1)} s for the batch; idle ms: ${e2.idle()}` }));
    }

    if (process.argv.includes('--trace')) {
      // Where one run's time goes: the gaps between the events of its history.
      await evalflow(0, 1, 1);
      for (const type of ['evalBatchWorkflow', 'evalRunWorkflow']) {
      const ids = [];
      for await (const w of client.workflow.list({ query: `WorkflowType = '${type}'` })) ids.push(w.workflowId);
      console.log(`== ${type}`);
      const history = await client.workflow.getHandle(ids[0]!).fetchHistory();
      let last = 0;
      for (const event of history.events ?? []) {
        const t = Number(event.eventTime?.seconds ?? 0) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);
        const type = Object.keys(event).find((key) => key.endsWith('EventAttributes') && (event as Record<string, unknown>)[key]) ?? '?';
        const upserted = event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
        console.log(`${last === 0 ? 0 : t - last} ms  ${type.replace('EventAttributes', '')}${upserted ? ` ${Object.keys(upserted).join(', ')}` : ''}`);
        last = t;
      }
      }
    }

    // One run alone, instant stubs: what each stage costs in orchestration.
    // A worker runs for days: each worker's first workflow (its cold start) is left out.
    const alone: number[] = [];
    const naiveAlone: number[] = [];
    const coldAlone: number[] = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) {
      const [cold, ...warm] = (await evalflow(0, 1, 1, 4)).times;
      coldAlone.push(cold!);
      alone.push(...warm);
      naiveAlone.push(...(await naive(0, 1, 4)).times.slice(1));
    }
    rows.push(row(`per stage, one run alone, a new worker's first batch, evalflow on the ${on}`, median(coldAlone) / STAGES, 'ms', { detail: `${median(coldAlone).toFixed(0)} ms (median of ${coldAlone.length}): the worker's first workflows of each type start cold` }));
    rows.push(row(`per stage, one run alone, evalflow on the ${on}`, median(alone) / STAGES, 'ms', { ...(on === 'dev server' ? { goal: '<= 30' } : {}), detail: `the whole batch of one run: ${median(alone).toFixed(0)} ms (median of ${alone.length}, on running workers; includes planning, the host claim, and the batch's own start and close)` }));
    rows.push(row(`per stage, one run alone, naive Temporal on the ${on}`, median(naiveAlone) / STAGES, 'ms', { detail: `${median(naiveAlone).toFixed(0)} ms per run (median of ${naiveAlone.length}, on a running worker)` }));

    // What a run costs the machine, whatever else runs on it: CPU of the worker and of the
    // server per run, instant stubs, evalflow and naive Temporal alternated.
    const cpu = { evalflow: [] as number[], naive: [] as number[], evalflowServer: [] as number[], naiveServer: [] as number[] };
    const cpuRuns = QUICK ? 20 : 50;
    for (let i = 0; i < (QUICK ? 1 : 3); i++) {
      const e = await cpuDuring(server.pid, () => evalflow(0, cpuRuns, 1));
      const n = await cpuDuring(server.pid, () => naive(0, cpuRuns));
      cpu.evalflow.push(e.ownMs / cpuRuns);
      cpu.evalflowServer.push(e.serverMs / cpuRuns);
      cpu.naive.push(n.ownMs / cpuRuns);
      cpu.naiveServer.push(n.serverMs / cpuRuns);
    }
    const perRun = (own: number[], srv: number[]) => median(own) + median(srv);
    rows.push(
      row(`CPU per run, evalflow on the ${on}`, perRun(cpu.evalflow, cpu.evalflowServer) / perRun(cpu.naive, cpu.naiveServer), '×', {
        against: 'naive Temporal',
        detail: `worker ${median(cpu.evalflow).toFixed(1)} + server ${median(cpu.evalflowServer).toFixed(1)} ms vs ${median(cpu.naive).toFixed(1)} + ${median(cpu.naiveServer).toFixed(1)} ms (${cpuRuns} runs, medians of ${cpu.evalflow.length})`,
      }),
    );
  } finally {
    await connection.close();
    await nativeConnection.close();
  }
  return rows;
}

async function pool(count: number, width: number, job: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

await main();
