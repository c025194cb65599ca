import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { openStore } from '../../src/store/index.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { startHolder } from '../support/storeHolder.js';
import { freePort, startTestTemporal, type TestTemporal } from '../support/temporalServer.js';
import { aRun, aScore } from './builders.js';

interface Finished {
  code: number | null;
  out: string[];
  /** Everything printed, for a failure's message. */
  all: string;
}

/** `evalflow <args>` as its own process, to its end. */
async function evalflow(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  const cli = startCli(args, { cwd, env });
  cli.child.stdin?.end();
  const code = await cli.exited;
  const all = `evalflow ${args.join(' ')} → ${code}\n${cli.lines.join('\n')}`;
  return { code, out: cli.stdout, all };
}

/**
 * The complaint: while a worker held the embedded store, every look-up but `status`
 * was refused with exit 1. Here another process holds it (as a worker running a batch does),
 * and each command, as its own process, answers through it.
 */
describe('every look-up and schedule command beside a holder of the embedded store', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;
  let holder: { pid: number; stop(): Promise<void> };
  let root: string;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture();
    root = fixture.root;
    env = { ...fixture.env, EVALFLOW_TEMPORAL_PORT: String(temporal.port), EVALFLOW_TEMPORAL_UI_PORT: String(temporal.uiPort) };
    // An earlier batch, seeded before anyone holds the store: two passing runs and one a person must review.
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      await store.upsertBatch({ batch_id: 'batch-earlier', status: 'completed', spec: {}, counts: { pass: 2, needs_review: 1 }, created_at: '2026-02-01T00:00:00Z' });
      for (const n of [1, 2]) {
        await store.upsertRun(aRun({ run_id: `run-earlier-${n}`, batch_id: 'batch-earlier', status: 'completed' }));
        await store.saveScore(`run-earlier-${n}`, aScore({ judged_at: `2026-02-01T00:0${n}:00Z` }));
      }
      await store.upsertRun(aRun({ run_id: 'run-earlier-doubt', batch_id: 'batch-earlier', status: 'needs_review', case_id: 'in-doubt' }));
      // Another run in doubt, in a batch of its own so the look-ups above see one: two reviews land at once below.
      await store.upsertBatch({ batch_id: 'batch-doubts', status: 'completed', spec: {}, counts: {}, created_at: '2026-01-01T00:00:00Z' });
      await store.upsertRun(aRun({ run_id: 'run-doubt-2', batch_id: 'batch-doubts', status: 'needs_review', case_id: 'in-doubt' }));
    } finally {
      await store.close();
    }
    // Seeds batch-held (run-held-1..3, passing) and holds the store from here on.
    holder = await startHolder(root, env);
  }, 400_000);
  afterAll(async () => {
    await holder?.stop();
    await temporal?.stop();
    await fixture?.close();
  });

  it('status, review --pending, compare and history answer from the store', async () => {
    // Through the holder, not beside a store nobody holds: what the commands below meet as well.
    const seen = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      expect(seen.servedBy).toBe(`process ${holder.pid} (holdStore) on ${hostname()}`);
    } finally {
      await seen.close();
    }
    const [status, pending, compare, history] = await Promise.all([
      evalflow(['status', 'batch-held'], root, env),
      evalflow(['review', '--pending'], root, env),
      evalflow(['compare', 'batch-earlier', 'batch-held'], root, env),
      evalflow(['history'], root, env),
    ]);
    expect(status.code, status.all).toBe(0);
    expect(status.out[0]).toMatch(/^batch\s+batch-held$/);
    expect(status.out[1]).toMatch(/^status\s+completed/);
    expect(pending.code, pending.all).toBe(0);
    expect(pending.all).not.toContain('not listed');
    expect(pending.out.some((line) => line.includes('run-earlier-doubt') && line.includes('recorded')), pending.all).toBe(true);
    expect(pending.out.some((line) => line.includes('run-doubt-2') && line.includes('recorded')), pending.all).toBe(true);
    expect(pending.out.at(-1)).toMatch(/^2 runs need a person's review/);
    expect(compare.code, compare.all).toBe(0);
    expect(compare.out[0]).toMatch(/^A: batch-earlier: 3 run\(s\), 2 judged, pass rate 100%/);
    expect(compare.out[1]).toMatch(/^B: batch-held: 3 run\(s\), 3 judged, pass rate 100%/);
    expect(compare.out.some((line) => /^insufficient_data\s+fix-login\s+2\/3\s/.test(line)), compare.all).toBe(true);
    expect(history.code, history.all).toBe(0);
    // One rev (none recorded): five judged passing runs of seven; the two in doubt have no verdict.
    expect(history.out.filter((line) => /^unknown\s/.test(line)), history.all).toHaveLength(1);
    expect(history.out.find((line) => /^unknown\s/.test(line))).toMatch(/\s5\/7\s+100% /);
  }, 300_000);

  it('summarize and dashboard write their files from the store', async () => {
    const summaries = join(root, 'served-summaries');
    const dashboardFile = join(root, 'served-dashboard.html');
    const [summarize, dashboard] = await Promise.all([
      evalflow(['summarize', '--batch', 'batch-held', '--out', summaries], root, env),
      evalflow(['dashboard', '--out', dashboardFile], root, env),
    ]);
    expect(summarize.code, summarize.all).toBe(0);
    expect(summarize.out[0]).toBe('summaries of batch-held:');
    // batch-held ran fix-login alone, a follow-up to batch-earlier's fix-login and in-doubt: the headline stays there.
    expect(await readFile(join(summaries, 'latest.md'), 'utf8')).toContain('# Latest batch: batch-earlier');
    expect(summarize.out.at(-1)).toMatch(/^latest\.md stays on batch-earlier: batch-held ran fewer or other cases/);
    const own = summarize.out.map((line) => line.trim()).find((line) => line.includes('selections/') && line.endsWith('latest.md'));
    expect(own, summarize.all).toBeDefined();
    expect(await readFile(join(root, own!), 'utf8')).toContain('# Latest batch: batch-held');
    expect(dashboard.code, dashboard.all).toBe(0);
    expect(dashboard.out[0]).toMatch(/^served-dashboard\.html: 7 runs, \d+ KB$/);
    const html = await readFile(dashboardFile, 'utf8');
    expect(html).toContain('batch-held');
    expect(html).toContain('batch-earlier');
  }, 300_000);

  it('two reviews made at once both land', async () => {
    const [first, second] = await Promise.all([
      evalflow(['review', 'run-earlier-doubt', '--result', 'pass', '--note', 'read it: fine'], root, { ...env, EVALFLOW_REVIEWER: 'alice' }),
      evalflow(['review', 'run-doubt-2', '--result', 'fail', '--note', 'missed the point'], root, { ...env, EVALFLOW_REVIEWER: 'bob' }),
    ]);
    expect(first.code, first.all).toBe(0);
    expect(first.out[0]).toMatch(/^run-earlier-doubt: completed pass, decided by alice \(recorded in the store/);
    expect(second.code, second.all).toBe(0);
    expect(second.out[0]).toMatch(/^run-doubt-2: completed fail, decided by bob \(recorded in the store/);
    const store = await openStore(storeOptions(await loadSettings(root, env)));
    try {
      expect(await store.getReview('run-earlier-doubt')).toMatchObject({ result: 'pass', author: 'alice', note: 'read it: fine' });
      expect(await store.getReview('run-doubt-2')).toMatchObject({ result: 'fail', author: 'bob', note: 'missed the point' });
      expect(await store.getRun('run-doubt-2')).toMatchObject({ status: 'completed', result: 'fail' });
    } finally {
      await store.close();
    }
    const pending = await evalflow(['review', '--pending'], root, env);
    expect(pending.out).toEqual(["No run needs a person's review."]);
  }, 300_000);

  it('schedule create, list, describe and trigger', async () => {
    const created = await evalflow(['schedule', 'create', 'served-nightly', '--every', '1h', '--paused', '--only', 'tiny', '--candidate', 'quick'], root, env);
    expect(created.code, created.all).toBe(0);
    expect(created.out[0]).toMatch(/^schedule served-nightly created: every 1h/);
    const [list, trigger] = await Promise.all([
      evalflow(['schedule', 'list'], root, env),
      evalflow(['schedule', 'trigger', 'served-nightly'], root, env),
    ]);
    expect(list.code, list.all).toBe(0);
    expect(list.out, list.all).toEqual([expect.stringMatching(/^served-nightly\s+every 1h\s+paused\s/)]);
    expect(trigger.code, trigger.all).toBe(0);
    expect(trigger.out).toEqual(['schedule served-nightly triggered: `evalflow schedule describe served-nightly` shows the batch']);
    const describe = await evalflow(['schedule', 'describe', 'served-nightly'], root, env);
    expect(describe.code, describe.all).toBe(0);
    expect(describe.out[0]).toBe('schedule  served-nightly (paused)');
    // From the store: no baseline blessed for it, and no batch of it concluded (no worker runs here).
    expect(describe.out).toContain('baseline  previous');
    expect(describe.out.at(-1)).toBe('last batches: none yet');
  }, 300_000);

  it('view serves the dashboard and a run page', async () => {
    const view: CliProcess = startCli(['view', '--port', String(await freePort())], { cwd: root, env });
    try {
      const line = await view.waitForLine(/^evalflow view: /, 120_000);
      const url = /evalflow view: (\S+)/.exec(line)![1]!;
      const home = await fetch(url);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('batch-held');
      const run = await fetch(new URL('runs/run-held-2', url));
      expect(run.status, await run.clone().text()).toBe(200);
      expect(await run.text()).toContain('run-held-2');
      const detail = await fetch(new URL('api/runs/run-held-2', url));
      expect(detail.status).toBe(200);
      expect(JSON.stringify(await detail.json())).toContain('batch-held');
    } finally {
      view.kill('SIGINT');
      await view.exited;
    }
  }, 300_000);
});
