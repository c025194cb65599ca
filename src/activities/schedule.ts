import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { ConfigError, FormatError } from '../errors.js';
import type { EvalCase } from '../evalset/index.js';
import { pickChangedCases } from '../run/changedOnly.js';
import type { ChangedOnly } from '../vocabulary/changedOnly.js';
import { changedWorkflowItems } from '../workflowUsage/changedItems.js';
import { loadEvalBank } from '../evalset/index.js';
import { selectionDigest } from '../run/batchPlan.js';
import { makeBatchId, makeRunId, runStamp } from '../run/runId.js';
import type { ScheduledBatchInput } from '../schedules/scheduleInput.js';
import { compareScheduled } from '../schedules/scheduleComparison.js';
import { headlineOf, reportMarkdown, verdictOf, type ReportComparison, type ScheduleReport } from '../schedules/scheduleReport.js';
import { resolveSide, selectSide } from '../summaries/selectSide.js';
import { sequentialSideNotes } from '../summaries/sequentialSideNotes.js';
import type { ActivityDeps } from './deps.js';
import { pinSources } from '../run/pinSources.js';
import { looksLikeGitUrl } from '../sandbox/gitUrl.js';

export interface PreparedScheduledBatch {
  batchId: string;
  stamp: string;
  digest: string;
  /** The workflow repository's latest commit when the batch started (a git URL's: its ref's, pinned); null when its folder is no git repository. */
  workflowRev: string | null;
  /** The commit a git URL project was pinned to for this firing; absent for a path. */
  projectCommit?: string;
  cases: number;
  /** `--changed-only`: the cases it picked for this firing (the batch's `only`), and why. */
  only?: string[];
  changedOnly?: ChangedOnly;
}

/** How long a `--notify` command may take. */
const NOTIFY_TIMEOUT_MS = 120_000;

export function scheduleActivities(deps: ActivityDeps) {
  return {
    /**
     * A firing's first step: the bank as this worker sees it now (its digest is what the batch
     * then holds it to), the workflow_rev every run of the batch pins, and a batch id and stamp
     * no run used yet. Refuses a bank with problems; nothing is created.
     */
    async prepareScheduledBatch({ input, scheduledAt }: { input: ScheduledBatchInput; scheduledAt: string }): Promise<PreparedScheduledBatch> {
      const bank = await loadEvalBank(input.selection.paths, input.selection.only ? { only: input.selection.only } : {});
      if (bank.problems.length > 0) throw new FormatError(`schedule ${input.schedule}: the eval bank has ${bank.problems.length} problem(s): ${bank.problems[0]}`, bank.problems);
      if (bank.cases.length === 0) throw new FormatError(`schedule ${input.schedule}: no eval cases under ${input.selection.paths.join(', ')}${input.selection.only ? ` with ids ${input.selection.only.join(', ')}` : ''}`);
      const changed = input.selection.changedOnly ? await pickScheduledChanges(deps, input, input.selection.changedOnly, bank.cases) : null;
      const cases = changed ? bank.cases.filter((c) => changed.picked.some((p) => p.case_id === c.id)) : bank.cases;
      // Git URL sources are pinned per firing: each firing tests what the remote holds then.
      const pinned = await pinSources(input.template);
      const rev = looksLikeGitUrl(input.template.workflowDir)
        ? { exitCode: 0, stdout: pinned.workflowRev ?? '' }
        : await execa('git', ['-C', input.template.workflowDir, 'rev-parse', 'HEAD'], { reject: false });
      let at = Date.parse(scheduledAt);
      const first = cases[0]!;
      const arm = input.arms?.[0];
      for (;;) {
        const stamp = runStamp(new Date(at));
        const runId = makeRunId(first.id, arm?.candidate?.name ?? input.template.candidate.name, stamp, input.selection.runsPerCase > 1 ? 1 : undefined, arm?.name);
        if (!(await deps.store.getRun(runId))) {
          return {
            batchId: makeBatchId(stamp, input.schedule),
            stamp,
            digest: selectionDigest(cases),
            workflowRev: rev.exitCode === 0 ? String(rev.stdout).trim() : null,
            ...(pinned.projectCommit ? { projectCommit: pinned.projectCommit } : {}),
            cases: cases.length,
            ...(changed ? { only: cases.map((c) => c.id), changedOnly: changed } : {}),
          };
        }
        at += 1_000;
      }
    },

    /**
     * A firing's last step: the batch compared with the schedule's previous batch and with its
     * baseline (the blessed one, else the one given at creation; arm by arm, like for like, when
     * it has arms: `compareScheduled`), its verdict, the report kept
     * in the store and written to summaries/schedules/NAME.{md,json}. A batch that never got
     * to run is recorded as a failed batch, so it is seen.
     */
    async concludeScheduledBatch(request: { input: ScheduledBatchInput; batchId: string; scheduledAt: string; workflowRev: string | null; problems: string[] }): Promise<ScheduleReport> {
      const { input, batchId } = request;
      const problems = [...request.problems];
      let batch = await deps.store.getBatch(batchId);
      if (!batch) batch = await deps.store.upsertBatch({ batch_id: batchId, status: 'failed', counts: {}, spec: { schedule: input.schedule, error: problems[0] ?? 'never started' } });
      const earlier = (await deps.store.listScheduledBatches(input.schedule, 5)).find((b) => b.batch_id !== batchId);
      const blessed = await deps.store.getBaseline(input.schedule);
      const baselineId = blessed?.batch_id ?? (input.baseline === 'previous' ? null : input.baseline);
      const compare = async (against: string | undefined | null, what: 'previous' | 'baseline'): Promise<ReportComparison | null> => {
        if (!against) return null;
        try {
          const [then, now] = [await selectSide(deps.store, against), await selectSide(deps.store, batchId)];
          const judgings = await deps.store.getJudgings([...then.entries, ...now.entries].map((e) => e.run.run_id));
          const compared = compareScheduled(against, then.entries, { batchId, batch, entries: now.entries }, judgings);
          problems.push(...compared.problems);
          // A batch run until decided (a baseline may be one) is labelled by Fisher's test here, and says so.
          const notes = compared.comparison ? await sequentialSideNotes(deps.store, { [what]: await resolveSide(deps.store, against) }) : [];
          return compared.comparison && notes.length > 0 ? { ...compared.comparison, method_notes: notes } : compared.comparison;
        } catch (err) {
          problems.push(`no comparison with ${against}: ${(err as Error).message}`);
          return null;
        }
      };
      const counts = { finished: 0, passed: 0, failed: 0, ...batch.counts } as ScheduleReport['counts'];
      const previous = await compare(earlier?.batch_id, 'previous');
      const baseline = await compare(baselineId, 'baseline');
      const partial = {
        schedule: input.schedule,
        batch_id: batchId,
        scheduled_at: request.scheduledAt,
        workflow_rev: request.workflowRev,
        status: batch.status,
        verdict: verdictOf(batch.status, counts, [previous, baseline]),
        counts,
        previous,
        baseline,
        problems,
      };
      const report: ScheduleReport = { ...partial, headline: headlineOf(partial) };
      await deps.store.saveScheduledBatch({ batch_id: batchId, schedule: input.schedule, verdict: report.verdict, report: { ...report }, finished_at: deps.now().toISOString() });
      const dir = join(input.summaries.dir, 'schedules');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${input.schedule}.md`), `${reportMarkdown(report)}\n`);
      await writeFile(join(dir, `${input.schedule}.json`), `${JSON.stringify(report, null, 2)}\n`);
      return report;
    },

    /** Runs the schedule's `--notify` command with the report as JSON on stdin; a command that fails says how. */
    async notifySchedule({ command, report }: { command: string; report: ScheduleReport }): Promise<{ ok: boolean; detail: string }> {
      const result = await execa('sh', ['-c', command], {
        input: `${JSON.stringify(report)}\n`,
        reject: false,
        timeout: NOTIFY_TIMEOUT_MS,
        env: { ...deps.env, EVALFLOW_SCHEDULE: report.schedule, EVALFLOW_BATCH: report.batch_id, EVALFLOW_VERDICT: report.verdict },
        extendEnv: false,
      });
      if (result.exitCode === 0) return { ok: true, detail: 'notified' };
      const tail = String(result.stderr).trim().split('\n').slice(-3).join(' / ');
      return { ok: false, detail: `--notify ${JSON.stringify(command)} ${result.timedOut ? 'timed out' : `exited ${result.exitCode}`}${tail ? `: ${tail}` : ''}` };
    },
  };
}

/**
 * `--changed-only` at a firing: the cases the workflow changes since the schedule's REV can
 * affect now. A REV gone from the repository, or no case to run, stops the firing with why.
 */
async function pickScheduledChanges(deps: ActivityDeps, input: ScheduledBatchInput, rev: string, cases: readonly EvalCase[]): Promise<ChangedOnly> {
  const changed = await changedWorkflowItems(input.template.workflowDir, rev);
  if (!changed) throw new ConfigError(`schedule ${input.schedule}: --changed-only ${rev} names no revision of the workflow repository at ${input.template.workflowDir} any more`);
  const scope = pickChangedCases(cases, rev, changed, await deps.store.listWorkflowItemUse(changed.items));
  if (scope.picked.length === 0) throw new ConfigError(`schedule ${input.schedule}: nothing to run: no selected case can be affected by the workflow changes since ${rev} (changed: ${changed.items.join(', ') || 'nothing'})`);
  return scope;
}
