import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleDescription } from '@temporalio/client';
import { knownAdapterNames } from '../candidates/index.js';
import { loadSettings, resolveCandidate, type Settings } from '../config.js';
import { ConfigError } from '../errors.js';
import { checkScheduleName, SCHEDULED_PRIORITY, ScheduledBatchInputSchema, type ScheduledBatchInput } from '../schedules/scheduleInput.js';
import { describeTiming, parseEvery, timingOf, type ScheduleTiming } from '../schedules/timing.js';
import { openStore, type Store } from '../store/index.js';
import { connectTemporal, type TemporalHandle } from '../temporal/connection.js';
import { SHARED_TASK_QUEUE } from '../temporal/names.js';
import { findSchedule } from '../temporal/findSchedule.js';
import { runTemplateOf } from '../cli/batch/start.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { checkChangedOnly } from '../cli/changedOnlyFlag.js';
import { resolveArmFlags } from '../cli/armFlags.js';
import { selectCases, selectionOverrides } from '../run/selection.js';
import type { SelectionFlags } from '../run/selectionFlags.js';
import { printJson } from '../cli/json/document.js';
import { ScheduleDescribeJson, ScheduleListJson } from '../cli/json/schedules.js';

export type ScheduleAction = 'create' | 'list' | 'describe' | 'trigger' | 'pause' | 'unpause' | 'delete' | 'backfill';

/** The flags of `evalflow schedule …`; create selects what it runs as `evalflow run` does (`SelectionFlags`). */
export interface ScheduleOptions extends SelectionFlags {
  action: ScheduleAction;
  name?: string;
  config?: string;
  /** create: when it fires. */
  cron?: string;
  every?: string;
  baseline?: string;
  notify?: string;
  catchupWindow?: string;
  /** create: start paused (it fires only when triggered or unpaused). */
  paused?: boolean;
  /** pause, unpause: why. */
  note?: string;
  /** backfill: the range of due times to run now. */
  from?: string;
  to?: string;
  /** list, describe: JSON (docs/json.md) instead of lines. */
  json?: boolean;
}

/** Firings missed while no server ran are caught up when it is back, if they are at most this old (one runs; overlap skip drops the rest). */
const DEFAULT_CATCHUP = '24h';

/**
 * `evalflow schedule …`: nightly (or any) regressions as Temporal Schedules whose action is a
 * scheduledBatchWorkflow. They fire only while a server and a worker run.
 */
export async function run(options: ScheduleOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, {
    ...(options.config ? { configPath: options.config } : {}),
    ...selectionOverrides(options),
  });
  // Only create, list and describe read the store. The others never open it: with no process
  // holding the embedded store, a trigger that opened it would hold it for its second, and a
  // worker starting then would be served by the trigger and lose the store when it exits.
  const store = readsStore(options.action) ? await openStore(lookupStoreOptions(settings)) : undefined;
  try {
    // Everything create can check is checked before Temporal is touched: a schedule is created whole or not at all.
    const input = options.action === 'create' ? await scheduleInput(options, settings, store!, io) : null;
    const temporal = await connectTemporal(settings, (line) => io.err(line));
    try {
      const name = options.action === 'list' ? '' : checkScheduleName(options.name ?? '');
      switch (options.action) {
        case 'create':
          return await create(temporal, input!, options, io);
        case 'list':
          return await list(temporal, store!, io, options.json === true);
        case 'describe':
          return await describe(temporal, store!, name, io, options.json === true);
        case 'trigger':
          return await trigger(temporal, name, io);
        case 'pause':
        case 'unpause':
          await known(temporal, name);
          await temporal.client.schedule.getHandle(name)[options.action](options.note ?? `${options.action}d with evalflow`);
          io.out(`schedule ${name} ${options.action}d`);
          return 0;
        case 'delete':
          await known(temporal, name);
          await temporal.client.schedule.getHandle(name).delete();
          io.out(`schedule ${name} deleted (its batches and reports stay in the store)`);
          return 0;
        case 'backfill':
          return await backfill(temporal, name, options, io);
      }
    } finally {
      await temporal.close();
    }
  } finally {
    // A call, not a branch: a conditional here would hide from tsc that the switch above always returns.
    await closeOpened(store);
  }
}

function closeOpened(store: Store | undefined): Promise<void> {
  return store ? store.close() : Promise.resolve();
}

/** The actions that read the store; trigger, pause, unpause, delete and backfill talk to Temporal only. */
function readsStore(action: ScheduleAction): boolean {
  return action === 'create' || action === 'list' || action === 'describe';
}

async function scheduleInput(options: ScheduleOptions, settings: Settings, store: Store, io: CommandIo): Promise<ScheduledBatchInput> {
  const name = checkScheduleName(options.name ?? '');
  const timing = timingOf(options);
  if (options.catchupWindow) parseEvery(options.catchupWindow);
  const { paths, only, bank } = await selectCases(options, settings.evalSets, io.cwd);
  if (options.changedOnly) await checkChangedOnly(options.changedOnly, settings.workflowDir);
  if (bank.problems.length > 0) throw new ConfigError(`schedule create: the eval bank has ${bank.problems.length} problem(s), first: ${bank.problems[0]} (\`evalflow validate\` lists them)`);
  if (bank.cases.length === 0) throw new ConfigError(`schedule create: no eval cases found under ${paths.join(', ')}`);
  const candidate = resolveCandidate(settings, settings.defaultCandidate, knownAdapterNames, io.env);
  const arms = await resolveArmFlags(options.arm ?? [], settings, candidate, io);
  const baseline = options.baseline ?? 'previous';
  if (baseline !== 'previous' && !(await store.getBatch(baseline))) {
    const recent = (await store.listBatches({ limit: 3 })).map((b) => b.batch_id);
    throw new ConfigError(`--baseline ${baseline}: no such batch in the store; give a batch id${recent.length ? ` (recent: ${recent.join(', ')})` : ''} or 'previous'`);
  }
  return ScheduledBatchInputSchema.parse({
    schedule: name,
    timing,
    selection: { paths, ...(only ? { only } : {}), runsPerCase: options.runsPerCase ?? settings.runsPerCase, ...(options.changedOnly ? { changedOnly: options.changedOnly } : {}) },
    template: runTemplateOf(settings, candidate),
    ...(arms.length > 0 ? { arms } : {}),
    parallelism: options.parallelism ?? settings.parallelism,
    summaries: { dir: settings.summariesDir, prices: settings.prices },
    baseline,
    ...(options.notify ? { notify: options.notify } : {}),
    priorityKey: SCHEDULED_PRIORITY,
  });
}

async function create(temporal: TemporalHandle, input: ScheduledBatchInput, options: ScheduleOptions, io: CommandIo): Promise<number> {
  const selection = `${input.selection.paths.length} bank folder(s)${input.selection.only ? `, only ${input.selection.only.join(',')}` : ''} × ${input.selection.runsPerCase}`;
  const summary = `evalflow ${input.schedule}: ${selection} · ${input.template.candidate.name}${input.template.candidate.model ? ` (${input.template.candidate.model})` : ''} · baseline ${input.baseline}`;
  try {
    await temporal.client.schedule.create({
      scheduleId: input.schedule,
      spec: specOf(input.timing),
      action: {
        type: 'startWorkflow',
        workflowType: 'scheduledBatchWorkflow',
        workflowId: `scheduled-${input.schedule}`,
        taskQueue: SHARED_TASK_QUEUE,
        args: [input],
        staticSummary: summary,
        staticDetails: [`- selection: ${input.selection.paths.join(', ')}`, `- baseline: ${input.baseline} (\`evalflow bless BATCH --schedule ${input.schedule}\` sets another)`, `- describe: \`evalflow schedule describe ${input.schedule}\``].join('\n'),
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: options.catchupWindow ?? DEFAULT_CATCHUP },
      state: { note: summary, paused: options.paused === true },
      memo: { evalflow: summary },
    });
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) throw new ConfigError(`schedule ${input.schedule} exists already: \`evalflow schedule delete ${input.schedule}\` first, or pick another name`);
    throw err;
  }
  const next = (await temporal.client.schedule.getHandle(input.schedule).describe()).info.nextActionTimes[0];
  const when = options.paused ? 'paused (`evalflow schedule unpause` starts it)' : `next ${next?.toISOString() ?? 'never'}`;
  io.out(`schedule ${input.schedule} created: ${describeTiming(input.timing)}, ${when}; compares with the previous batch and baseline ${input.baseline}`);
  io.out('it fires only while a Temporal server and a worker run (`evalflow server --worker`); missed firings catch up once when they are back');
  return 0;
}

function specOf(timing: ScheduleTiming) {
  return 'cron' in timing ? { cronExpressions: [timing.cron] } : { intervals: [{ every: `${parseEvery(timing.every)}ms` as const }] };
}

/** The schedule's description; an unknown name is a ConfigError that says how to find the right one. */
async function known(temporal: TemporalHandle, name: string): Promise<ScheduleDescription> {
  const description = await findSchedule(temporal, name);
  if (!description) throw new ConfigError(`no schedule ${name} on ${temporal.address} (\`evalflow schedule list\` shows them)`);
  return description;
}

function inputOf(description: ScheduleDescription): ScheduledBatchInput | null {
  const parsed = ScheduledBatchInputSchema.safeParse(description.action.type === 'startWorkflow' ? description.action.args?.[0] : undefined);
  return parsed.success ? parsed.data : null;
}

async function list(temporal: TemporalHandle, store: Store, io: CommandIo, json: boolean): Promise<number> {
  let count = 0;
  const schedules: { name: string; timing: string | null; paused: boolean; next: string | null; last_batch: { batch_id: string; verdict: 'ok' | 'regression' | 'failed' } | null }[] = [];
  for await (const summary of temporal.client.schedule.list()) {
    if (summary.action?.type !== 'startWorkflow' || summary.action.workflowType !== 'scheduledBatchWorkflow') continue;
    const description = await known(temporal, summary.scheduleId);
    const input = inputOf(description);
    const last = (await store.listScheduledBatches(summary.scheduleId, 1))[0];
    count += 1;
    const next = description.state.paused ? null : (description.info.nextActionTimes[0]?.toISOString() ?? null);
    schedules.push({ name: summary.scheduleId, timing: input ? describeTiming(input.timing) : null, paused: description.state.paused, next, last_batch: last ? { batch_id: last.batch_id, verdict: last.verdict } : null });
    if (json) continue;
    io.out(
      [
        summary.scheduleId,
        input ? describeTiming(input.timing) : '?',
        description.state.paused ? 'paused' : `next ${description.info.nextActionTimes[0]?.toISOString() ?? 'never'}`,
        last ? `last ${last.batch_id} ${last.verdict}` : 'no batch yet',
      ].join('  '),
    );
  }
  if (json) printJson(io, ScheduleListJson, { schema_version: 1, schedules });
  if (count === 0) io.err('no schedules (`evalflow schedule create NAME --every 24h` makes one)');
  return 0;
}

async function describe(temporal: TemporalHandle, store: Store, name: string, io: CommandIo, json: boolean): Promise<number> {
  const description = await known(temporal, name);
  const input = inputOf(description);
  const blessed = await store.getBaseline(name);
  if (json) {
    const selection = input && { paths: input.selection.paths, only: input.selection.only ?? null, runs_per_case: input.selection.runsPerCase, candidate: input.template.candidate.name, parallelism: input.parallelism };
    const given = input && (input.baseline === 'previous' ? null : input.baseline);
    printJson(io, ScheduleDescribeJson, {
      schema_version: 1,
      name,
      paused: description.state.paused,
      timing: input ? describeTiming(input.timing) : null,
      selection,
      baseline: blessed ? { batch_id: blessed.batch_id, blessed_by: blessed.blessed_by, blessed_at: blessed.blessed_at } : input ? { batch_id: given, blessed_by: null, blessed_at: null } : null,
      next: description.info.nextActionTimes.slice(0, 3).map((t) => t.toISOString()),
      running: description.info.runningActions.map((a) => a.workflow.workflowId),
      skipped_overlap: description.info.numActionsSkippedOverlap,
      skipped_catchup: description.info.numActionsMissedCatchupWindow,
      last_batches: (await store.listScheduledBatches(name, 10)).map((b) => ({ batch_id: b.batch_id, verdict: b.verdict, headline: String(b.report.headline ?? '') })),
    });
    return 0;
  }
  io.out(`schedule  ${name}${description.state.paused ? ' (paused)' : ''}`);
  if (input) {
    io.out(`when      ${describeTiming(input.timing)}, overlap skip`);
    io.out(`runs      ${input.selection.paths.join(', ')}${input.selection.only ? ` (only ${input.selection.only.join(',')})` : ''} × ${input.selection.runsPerCase}, candidate ${input.template.candidate.name}, parallelism ${input.parallelism}`);
    io.out(`baseline  ${blessed ? `${blessed.batch_id} (blessed by ${blessed.blessed_by} ${blessed.blessed_at})` : input.baseline}`);
  }
  io.out(`next      ${description.info.nextActionTimes.slice(0, 3).map((t) => t.toISOString()).join(', ') || 'none'}`);
  io.out(`running   ${description.info.runningActions.map((a) => a.workflow.workflowId).join(', ') || 'nothing'}`);
  io.out(`skipped   ${description.info.numActionsSkippedOverlap} (overlap), ${description.info.numActionsMissedCatchupWindow} (past the catch-up window)`);
  const batches = await store.listScheduledBatches(name, 10);
  io.out(batches.length ? 'last batches:' : 'last batches: none yet');
  for (const batch of batches) io.out(`  ${batch.batch_id}  ${batch.verdict}  ${String(batch.report.headline ?? '')}`);
  return 0;
}

async function trigger(temporal: TemporalHandle, name: string, io: CommandIo): Promise<number> {
  const description = await known(temporal, name);
  const running = description.info.runningActions.map((a) => a.workflow.workflowId);
  await temporal.client.schedule.getHandle(name).trigger(ScheduleOverlapPolicy.SKIP);
  if (running.length > 0) io.out(`schedule ${name}: skipped, ${running.join(', ')} still runs (overlap policy skip)`);
  else io.out(`schedule ${name} triggered: \`evalflow schedule describe ${name}\` shows the batch`);
  return 0;
}

async function backfill(temporal: TemporalHandle, name: string, options: ScheduleOptions, io: CommandIo): Promise<number> {
  const at = (flag: string, text: string | undefined) => {
    const ms = text ? Date.parse(text) : NaN;
    if (Number.isNaN(ms)) throw new ConfigError(`backfill: ${flag} expects a time such as 2026-12-01T00:00:00Z, found ${JSON.stringify(text ?? '')}`);
    return new Date(ms);
  };
  const start = at('--from', options.from);
  const end = at('--to', options.to);
  if (end <= start) throw new ConfigError(`backfill: --to (${end.toISOString()}) must be after --from (${start.toISOString()})`);
  await known(temporal, name);
  // Every due time in the range runs, one after the other (not skipped for overlapping each other).
  await temporal.client.schedule.getHandle(name).backfill({ start, end, overlap: ScheduleOverlapPolicy.BUFFER_ALL });
  io.out(`schedule ${name}: backfilling the firings due from ${start.toISOString()} to ${end.toISOString()}, one after the other`);
  return 0;
}
