// suite group: beside (most of it waits for killed workers' heartbeats to time out)
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Client, type Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunAnomaly } from '../../src/vocabulary/anomaly.js';
import type { BatchResult } from '../../src/run/batchInput.js';
import type { Store } from '../../src/store/index.js';
import { SHARED_TASK_QUEUE } from '../../src/temporal/names.js';
import type { CliProcess } from '../support/cliProcess.js';
import type { CrashFixture } from '../support/crashFixture.js';
import { startCrashHarness, type CrashHarness } from '../support/crashHarness.js';

const RUNS = 30;
const PARALLELISM = 8;
/** How long the scripted agent works per turn. */
const TURN_S = 6;

/**
 * The product's promise for a user who walks away from a batch: the worker is killed with
 * SIGKILL twice mid-batch (once while a model call is in flight, once while agents run) and
 * started again. Everything is real (the dev server, a separate `evalflow worker` process,
 * PostgreSQL, git sandboxes, a `command` agent); only the model is the scripted mock, with
 * 100 ms latency.
 */
describe('a batch whose worker is killed twice', () => {
  let harness: CrashHarness;
  let fixture: CrashFixture;
  let store: Store;
  let connection: Connection;
  let client: Client;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    harness = await startCrashHarness({
      models: { examiner: 'crash-examiner', judge: 'crash-judge' },
      modelDelayMs: 100,
      // The agent logs each turn's start and end with its pid, and says so if an earlier
      // attempt of the same turn is still alive when it starts.
      agentTurn: [
        'key="$EVALFLOW_RUN_ID.$EVALFLOW_TURN"',
        'if [ -f "$log/$key.pid" ] && kill -0 "$(cat "$log/$key.pid")" 2>/dev/null; then echo "overlap $EVALFLOW_RUN_ID $EVALFLOW_TURN" >> "$log/agent.log"; fi',
        'echo $$ > "$log/$key.pid"',
        'echo "start $EVALFLOW_RUN_ID $EVALFLOW_TURN $$ $(date +%s%3N)" >> "$log/agent.log"',
        `sleep ${TURN_S}`,
        'echo "turn $EVALFLOW_TURN" >> progress.txt',
        'echo "end $EVALFLOW_RUN_ID $EVALFLOW_TURN $$" >> "$log/agent.log"',
        'echo "did turn $EVALFLOW_TURN"',
      ],
      progressPostcondition: true,
    });
    ({ fixture, store, connection } = harness);
    await writeFile(join(fixture.root, 'evalflow.config.yaml'), `candidates:\n  agent:\n    adapter: command\n    args: [./agent.sh]\n`);
    client = new Client({ connection });
  });

  afterAll(async () => {
    await harness?.close();
  });

  async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const turnsInFlight = () => {
    const open = new Map<string, string>();
    for (const line of fixture.agentLog()) {
      const [kind, run, turn, pid] = line.split(' ');
      if (kind === 'start') open.set(`${run} ${turn} ${pid}`, line);
      if (kind === 'end') open.delete(`${run} ${turn} ${pid}`);
    }
    return [...open.keys()];
  };

  async function runBatch(
    name: string,
    kills: ('model' | 'candidate')[],
  ): Promise<{ batchId: string; seconds: number; result: BatchResult; killedAttempts: string[]; killedAt: number[]; restartedAt: number[] }> {
    const stamp = '20260301T000002';
    const input = fixture.batchInput({ name, stamp, runsPerCase: RUNS, parallelism: PARALLELISM, turnTimeoutS: 120 });
    const { batchId } = input;
    // As many slots as the batch's parallelism: a kill must find several agents at work (the default is one slot per core).
    worker = await harness.startWorker(undefined, ['--slots', String(PARALLELISM)]);
    const started = Date.now();
    const handle = await client.workflow.start('evalBatchWorkflow', { workflowId: batchId, taskQueue: SHARED_TASK_QUEUE, args: [input] });
    const killedAttempts: string[] = [];
    const killedAt: number[] = [];
    const restartedAt: number[] = [];
    for (const kill of kills) {
      // Kill in the middle of the batch, while what the kill is about is under way.
      await until(() => fixture.agentLog().filter((l) => l.startsWith('end ') && l.includes(stamp)).length >= (kill === 'model' ? 10 : 25), 'runs to progress');
      if (kill === 'model') await until(() => fixture.modelCallsInFlight() > 0, 'a model call in flight');
      else await until(() => turnsInFlight().filter((t) => t.includes(stamp)).length >= 3, 'agents at work');
      worker.kill('SIGKILL');
      killedAt.push(Date.now());
      await worker.exited;
      // What was in flight: every agent that logged its start and never its end (they die with the worker).
      await new Promise((r) => setTimeout(r, 200));
      killedAttempts.push(...turnsInFlight().filter((t) => t.includes(stamp) && !killedAttempts.includes(t)));
      worker = await harness.startWorker(undefined, ['--slots', String(PARALLELISM)]);
      restartedAt.push(Date.now());
    }
    const result = (await handle.result()) as BatchResult;
    const seconds = (Date.now() - started) / 1000;
    worker.kill('SIGTERM');
    await worker.exited;
    worker = undefined;
    return { batchId, seconds, result, killedAttempts, killedAt, restartedAt };
  }

  // What the kills cost in time is measured in bench/crashCost.ts, as a ratio to a batch without kills.
  it(`finishes all ${RUNS} runs once, repeats only the turns in flight (recorded), leaves no agent alive`, async () => {
    const crashed = await runBatch('crashed', ['model', 'candidate']);
    console.log(`crash recovery: the batch with two kill -9 took ${crashed.seconds.toFixed(1)} s`);

    // Every run completed once: one row, one verdict, and a clean sandbox history.
    const runs = await store.listRuns({ batchId: crashed.batchId });
    for (const run of runs.filter((r) => r.result !== 'pass')) {
      console.log(`${run.run_id} ${run.status} ${run.result}:\n${readFileSync(resolve(fixture.root, run.run_dir, 'review.md'), 'utf8')}\n${readFileSync(resolve(fixture.root, run.run_dir, 'env_checklist.yaml'), 'utf8')}`);
    }
    expect(crashed.result.counts).toMatchObject({ finished: RUNS, passed: RUNS, completed: RUNS });
    expect(runs).toHaveLength(RUNS);
    expect(runs.every((r) => r.status === 'completed' && r.result === 'pass')).toBe(true);
    for (const run of runs) {
      const history = (await store.scoreHistory({ caseId: 'two-steps' })).filter((h) => h.run_id === run.run_id);
      expect(history, run.run_id).toHaveLength(1);
    }

    // Per (run, turn) the agent started once, except the turns in flight at a kill: those
    // started twice (the first time before a kill and within one turn's time of it, the
    // second after it) and are recorded as repeated spend on their run.
    const log = fixture.agentLog().filter((l) => l.includes('20260301T000002'));
    expect(log.filter((l) => l.startsWith('overlap '))).toEqual([]);
    const starts = new Map<string, number[]>();
    for (const line of log.filter((l) => l.startsWith('start '))) {
      const [, run, turn, , at] = line.split(' ');
      starts.set(`${run} ${turn}`, [...(starts.get(`${run} ${turn}`) ?? []), Number(at)]);
    }
    expect([...starts.values()].every((times) => times.length <= 2)).toBe(true);
    const repeatedTurns = [...starts.entries()].filter(([, times]) => times.length > 1).map(([key]) => key).sort();
    expect(repeatedTurns.length).toBeGreaterThan(0);
    expect(repeatedTurns.length).toBeLessThanOrEqual(2 * PARALLELISM);
    for (const key of repeatedTurns) {
      const [first, second] = starts.get(key)!;
      const kill = crashed.killedAt.find((at) => first! < at && at < second!);
      expect(kill, `${key}: started twice, but not across a kill`).toBeDefined();
      expect(kill! - first!, `${key}: its first attempt was not in flight at the kill`).toBeLessThan((TURN_S + 3) * 1000);
    }
    const recorded = runs.flatMap((r) =>
      r.anomalies
        .filter((a): a is Extract<RunAnomaly, { kind: 'repeated_spend' }> => a.kind === 'repeated_spend' && a.role === 'candidate')
        .map((a) => `${r.run_id} ${a.turn}`),
    );
    // Every repeated turn is recorded. A turn may be recorded without a second start: its
    // attempt was marked as spending just before a kill, before its agent had logged a start.
    expect(recorded.filter((key) => repeatedTurns.includes(key)).sort()).toEqual(repeatedTurns);
    for (const key of recorded.filter((key) => !repeatedTurns.includes(key))) {
      const [runId, turn] = key.split(' ');
      const lost = (await store.getSteps(runId!, { role: 'candidate', turn: Number(turn) })).filter((step) => step.state === 'spending');
      expect(lost, `${key}: recorded as repeated without a lost attempt`).toHaveLength(1);
      const markedAt = Date.parse(lost[0]!.started_at);
      expect(crashed.killedAt.some((at) => markedAt <= at && at - markedAt < 2_000), `${key}: its lost attempt was not marked just before a kill`).toBe(true);
      expect(starts.get(key), key).toHaveLength(1);
    }
    // How long recovery took: from the kill to the worker serving again, and to the first repeated turn starting.
    const retryStarts = (after: number) =>
      log
        .filter((l) => l.startsWith('start ') && repeatedTurns.includes(l.split(' ').slice(1, 3).join(' ')))
        .map((l) => Number(l.split(' ')[4]))
        .filter((t) => t > after);
    for (const [i, at] of crashed.killedAt.entries()) {
      const firstRetry = Math.min(...retryStarts(at));
      console.log(
        `kill ${i + 1} (${['model call', 'candidate turn'][i]}): worker serving again after ${((crashed.restartedAt[i]! - at) / 1000).toFixed(1)} s, first repeated turn started after ${((firstRetry - at) / 1000).toFixed(1)} s`,
      );
    }

    // The agents at work when their worker was killed died with it: none finished its turn
    // afterwards, and none is alive.
    expect(crashed.killedAttempts.length).toBeGreaterThan(0);
    for (const attempt of crashed.killedAttempts) {
      const pid = Number(attempt.split(' ')[2]);
      expect(log.some((l) => l === `end ${attempt}`), attempt).toBe(false);
      expect(() => process.kill(pid, 0), `pid ${pid} of ${attempt}`).toThrow();
      expect(repeatedTurns, attempt).toContain(attempt.split(' ').slice(0, 2).join(' '));
    }
    // Model calls in flight at the first kill were repeated, and say so.
    const examinerRepeats = runs.flatMap((r) => r.anomalies.filter((a) => a.kind === 'repeated_spend' && a.role !== 'candidate'));
    expect(examinerRepeats.length).toBeGreaterThan(0);
  }, 600_000);
});
