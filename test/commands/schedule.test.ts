import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as bless } from '../../src/commands/bless.js';
import { memoryIo } from '../../src/cli/io.js';
import { openRuntime, type EvalRuntime } from '../../src/cli/runtime.js';
import { run as schedule, type ScheduleOptions } from '../../src/commands/schedule.js';
import { loadSettings } from '../../src/config.js';
import { ScheduleReportSchema, type ScheduleReport } from '../../src/schedules/scheduleReport.js';
import { createBatchFixture, type BatchFixture } from '../support/batchFixture.js';
import { dropSchema, postgresUrl, randomSchema } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

describe('evalflow schedule, on the dev server', () => {
  let temporal: TestTemporal;
  let fixture: BatchFixture;
  let env: NodeJS.ProcessEnv;
  let runtime: EvalRuntime;
  let schema: string;
  let workflowRev: string;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    fixture = await createBatchFixture({ slowSeconds: 6 });
    schema = randomSchema();
    env = { ...fixture.env, TEMPORAL_ADDRESS: temporal.address, DATABASE_URL: await postgresUrl(), EVALFLOW_STORE_SCHEMA: schema, USER: 'alice' };
    // The workflow folder is a repository: every scheduled batch pins its latest commit.
    const git = (args: string[]) => execa('git', args, { cwd: join(fixture.root, 'workflow'), env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } });
    await git(['init', '-q', '-b', 'main']);
    await git(['add', '-A']);
    await git(['commit', '-qm', 'workflow']);
    workflowRev = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    // A case whose precondition never holds: every run of it ends aborted, so nothing is measured.
    await mkdir(join(fixture.root, 'eval_sets', 'broken'), { recursive: true });
    const tiny = (name: string) => readFile(join(fixture.root, 'eval_sets', 'tiny', name), 'utf8');
    await writeFile(join(fixture.root, 'eval_sets', 'broken', 'meta.yaml'), (await tiny('meta.yaml')).replace('id: tiny', 'id: broken'));
    for (const name of ['task.md', 'rubric.md']) await writeFile(join(fixture.root, 'eval_sets', 'broken', name), await tiny(name));
    await writeFile(
      join(fixture.root, 'eval_sets', 'broken', 'env.yaml'),
      "setup_commands: []\npreconditions:\n  - description: 'a file that is never there'\n    check: 'test -f never-there'\n    severity: hard\npost_run_cleanup: []\npostconditions: []\n",
    );
    await mkdir(join(fixture.root, 'notified'));
    const settings = await loadSettings(fixture.root, env);
    runtime = await openRuntime(settings, memoryIo(fixture.root, env), { worker: true, sandboxRoot: join(fixture.root, 'sandboxes') });
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await temporal?.stop();
    await fixture?.close();
    if (schema) await dropSchema(schema);
  });

  const cli = async (options: ScheduleOptions) => {
    const io = memoryIo(fixture.root, env);
    const code = await schedule(options, io);
    return { code, out: io.stdout, err: io.stderr };
  };

  /** Resolves with the schedule's concluded batches once there are `n` and its workflows have all closed, newest first. */
  const concluded = async (name: string, n: number, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const batches = await runtime.store.listScheduledBatches(name, 10);
      // A report is kept a moment before its workflow closes; a trigger in between would be skipped.
      const running = (await runtime.temporal.client.schedule.getHandle(name).describe()).info.runningActions.length;
      if (batches.length >= n && running === 0) return batches;
      if (Date.now() > deadline) throw new Error(`schedule ${name}: ${batches.length} of ${n} batches concluded within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const startedBy = async (name: string) => {
    const ids: string[] = [];
    for await (const w of runtime.temporal.client.workflow.list({ query: `TemporalScheduledById = "${name}"` })) ids.push(w.workflowId);
    return ids.sort();
  };

  it('create every 1m, pause, trigger twice: each batch runs the pinned workflow_rev at a lower priority and compares itself with the one before; unpause, delete', { timeout: 240_000 }, async () => {
    const notify = `cat > '${join(fixture.root, 'notified')}'/$EVALFLOW_BATCH.json`;
    const created = await cli({ action: 'create', name: 'nightly', every: '1m', only: 'tiny', candidate: 'quick', parallelism: 2, notify });
    expect(created.code).toBe(0);
    expect(created.out[0]).toMatch(/^schedule nightly created: every 1m, next \d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z; compares with the previous batch and baseline previous$/);
    // (A firing due between this create and the pause below would show as a fourth batch at the end.)
    const action = (await runtime.temporal.client.schedule.getHandle('nightly').describe()).action;
    expect(action.type === 'startWorkflow' && action.staticSummary).toBe('evalflow nightly: 1 bank folder(s), only tiny × 1 · quick · baseline previous');
    // Paused, it fires only when triggered: the test decides when batches start.
    expect((await cli({ action: 'pause', name: 'nightly', note: 'test' })).out).toEqual(['schedule nightly paused']);

    expect((await cli({ action: 'trigger', name: 'nightly' })).out).toEqual(['schedule nightly triggered: `evalflow schedule describe nightly` shows the batch']);
    const [first] = await concluded('nightly', 1);
    expect(first).toMatchObject({ verdict: 'ok', report: { status: 'completed', previous: null, baseline: null, workflow_rev: workflowRev, counts: { finished: 1, passed: 1 } } });
    const firstRuns = await runtime.store.listRuns({ batchId: first!.batch_id });
    expect(firstRuns.map((r) => [r.status, r.workflow_rev])).toEqual([['completed', workflowRev]]);
    const batch = await runtime.temporal.client.workflow.getHandle(first!.batch_id).describe();
    expect(batch.priority?.priorityKey).toBe(4);
    expect(await batch.staticSummary()).toBe('schedule nightly · 1 case · quick · parallelism 2');
    const run = await runtime.temporal.client.workflow.getHandle(firstRuns[0]!.run_id).describe();
    expect(run.priority?.priorityKey).toBe(4);

    expect((await cli({ action: 'trigger', name: 'nightly' })).code).toBe(0);
    const [second] = await concluded('nightly', 2);
    const report = ScheduleReportSchema.parse(second!.report);
    expect(report.previous).toMatchObject({ against: first!.batch_id, pass_rate_then: 1, pass_rate_now: 1, regressions: [] });
    expect(report.headline).toBe(`schedule nightly, batch ${second!.batch_id} ok: 1 pass, 0 fail of 1; previous ${first!.batch_id}: 100% → 100%; no baseline to compare with`);
    // Written to the summaries and given to --notify on stdin.
    expect(await readFile(join(fixture.root, 'out', 'summaries', 'schedules', 'nightly.md'), 'utf8')).toContain(report.headline);
    expect(JSON.parse(await readFile(join(fixture.root, 'out', 'summaries', 'schedules', 'nightly.json'), 'utf8'))).toEqual(report);
    expect(JSON.parse(await readFile(join(fixture.root, 'notified', `${second!.batch_id}.json`), 'utf8'))).toEqual(report);

    // Blessing the first batch makes it the baseline of later firings.
    const blessed = memoryIo(fixture.root, env);
    expect(await bless({ batchId: first!.batch_id }, blessed)).toBe(0);
    expect(blessed.stdout).toEqual([`schedule nightly: baseline ${first!.batch_id}`]);
    expect((await cli({ action: 'trigger', name: 'nightly' })).code).toBe(0);
    const [third] = await concluded('nightly', 3);
    expect(third!.report).toMatchObject({ previous: { against: second!.batch_id }, baseline: { against: first!.batch_id, regressions: [] } });

    const described = await cli({ action: 'describe', name: 'nightly' });
    expect(described.out[0]).toBe('schedule  nightly (paused)');
    expect(described.out).toContain(`baseline  ${first!.batch_id} (blessed by alice ${(await runtime.store.getBaseline('nightly'))!.blessed_at})`);
    expect(described.out.slice(-3).map((l) => l.trim().split(/\s+/).slice(0, 2))).toEqual([third, second, first].map((b) => [b!.batch_id, 'ok']));

    expect((await cli({ action: 'unpause', name: 'nightly' })).out).toEqual(['schedule nightly unpaused']);
    expect((await cli({ action: 'describe', name: 'nightly' })).out[0]).toBe('schedule  nightly');
    expect((await cli({ action: 'delete', name: 'nightly' })).out).toEqual(['schedule nightly deleted (its batches and reports stay in the store)']);
    await expect(cli({ action: 'describe', name: 'nightly' })).rejects.toThrow(`no schedule nightly on ${temporal.address} (\`evalflow schedule list\` shows them)`);
    expect(await startedBy('nightly')).toHaveLength(3);
  });

  it('a trigger while the batch before still runs is skipped', { timeout: 180_000 }, async () => {
    const created = await cli({ action: 'create', name: 'slowone', every: '1m', only: 'tiny', candidate: 'slow', paused: true });
    expect(created.out[0]).toBe('schedule slowone created: every 1m, paused (`evalflow schedule unpause` starts it); compares with the previous batch and baseline previous');
    const before = fixture.startedTurns();
    await cli({ action: 'trigger', name: 'slowone' });
    await fixture.waitForTurns(before + 1);
    const again = await cli({ action: 'trigger', name: 'slowone' });
    expect(again.out[0]).toMatch(/^schedule slowone: skipped, scheduled-slowone-\S+ still runs \(overlap policy skip\)$/);
    await concluded('slowone', 1);
    // Give a wrongly buffered second firing the time to start.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await startedBy('slowone')).toHaveLength(1);
    expect((await runtime.temporal.client.schedule.getHandle('slowone').describe()).info.numActionsSkippedOverlap).toBe(1);
    await cli({ action: 'delete', name: 'slowone' });
  });

  it('backfill over two intervals starts exactly two batches, one after the other', { timeout: 180_000 }, async () => {
    expect((await cli({ action: 'create', name: 'nightly-main', every: '1m', only: 'tiny', candidate: 'quick', paused: true })).code).toBe(0);
    const filled = await cli({ action: 'backfill', name: 'nightly-main', from: '2026-11-30T10:00:30Z', to: '2026-11-30T10:02:30Z' });
    expect(filled.out).toEqual(['schedule nightly-main: backfilling the firings due from 2026-11-30T10:00:30.000Z to 2026-11-30T10:02:30.000Z, one after the other']);
    const batches = await concluded('nightly-main', 2);
    expect(batches.map((b) => b.batch_id).sort()).toEqual(['batch-20261130T100100-nightly-main', 'batch-20261130T100200-nightly-main']);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await startedBy('nightly-main')).toEqual(['scheduled-nightly-main-2026-11-30T10:01:00Z', 'scheduled-nightly-main-2026-11-30T10:02:00Z']);
    // The later one compares with the earlier.
    expect((batches.find((b) => b.batch_id.includes('T100200'))!.report as unknown as ScheduleReport).previous?.against).toBe('batch-20261130T100100-nightly-main');
    await cli({ action: 'delete', name: 'nightly-main' });
  });

  it('a scheduled batch with zero completed runs is reported as failed, loudly', { timeout: 180_000 }, async () => {
    const notify = `cat > '${join(fixture.root, 'notified')}'/$EVALFLOW_BATCH.json`;
    expect((await cli({ action: 'create', name: 'broken', every: '24h', only: 'broken', candidate: 'quick', notify })).code).toBe(0);
    await cli({ action: 'trigger', name: 'broken' });
    const [batch] = await concluded('broken', 1);
    expect(batch).toMatchObject({ verdict: 'failed', report: { status: 'failed', counts: { finished: 1, aborted: 1 } } });
    const report = batch!.report as unknown as ScheduleReport;
    expect(report.headline).toBe(`schedule broken, batch ${batch!.batch_id} FAILED: 0 of 1 runs completed; nothing was measured`);
    const [workflowId] = await startedBy('broken');
    const handle = runtime.temporal.client.workflow.getHandle(workflowId!);
    await expect(handle.result()).rejects.toThrow();
    expect((await handle.describe()).status.name).toBe('FAILED');
    expect(JSON.parse(await readFile(join(fixture.root, 'notified', `${batch!.batch_id}.json`), 'utf8'))).toMatchObject({ verdict: 'failed', headline: report.headline });
    await cli({ action: 'delete', name: 'broken' });
  });

  it('bad input is one clear line, and nothing is created', { timeout: 60_000 }, async () => {
    await expect(cli({ action: 'create', name: 'bad', every: '24h', only: 'tiny', candidate: 'quick', changedOnly: 'no-such-rev' })).rejects.toThrow(
      /^--changed-only no-such-rev: expected a revision of the workflow repository at \S+ \(a commit, branch, tag or HEAD~N\), found none there$/,
    );
    await expect(cli({ action: 'create', name: 'bad', cron: '0 25 * * *', only: 'tiny', candidate: 'quick' })).rejects.toThrow('--cron "0 25 * * *": the hour field "25" has "25"; expected 0-23');
    await expect(cli({ action: 'create', name: 'bad', every: '24h', only: 'tiny', candidate: 'quick', baseline: 'batch-20200101T000000-nope' })).rejects.toThrow(
      /^--baseline batch-20200101T000000-nope: no such batch in the store; give a batch id \(recent: .*\) or 'previous'$/,
    );
    await expect(cli({ action: 'create', name: 'Bad Name', every: '24h' })).rejects.toThrow(/^schedule name: expected lowercase letters/);
    await expect(cli({ action: 'trigger', name: 'nosuch' })).rejects.toThrow(`no schedule nosuch on ${temporal.address} (\`evalflow schedule list\` shows them)`);
    const blessed = memoryIo(fixture.root, env);
    await expect(bless({ batchId: 'batch-20200101T000000-nope' }, blessed)).rejects.toThrow('bless: batch-20200101T000000-nope is no batch in the store (`evalflow batches` lists them)');
    const listed = await cli({ action: 'list' });
    expect(listed.out.some((l) => l.startsWith('bad'))).toBe(false);
    expect(existsSync(join(fixture.root, 'notified', 'bad'))).toBe(false);
  });
});
