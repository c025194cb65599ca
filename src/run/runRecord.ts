import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult } from '../evalset/checkResult.js';
import { renderAbortedReview, renderJudgeFailedReview, renderReview } from './reviewMarkdown.js';
import type { Store } from '../store/index.js';
import { writeTranscriptFile } from '../transcript/writeTranscriptFile.js';
import { inlinedTriggers } from '../workflowUsage/index.js';
import { runTokens } from './runTokens.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import { decisionOf } from './runReview.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import { readEnvChecklist, runConfig, writeYamlFile, type JudgeInputRecord } from './runFiles.js';
import type { RunOutcome } from './runOutcome.js';
import { runPaths, type RunPaths } from './runPaths.js';
import type { RunSpec } from './runSpec.js';
import { isUnfinished, type RunStatus } from '../vocabulary/runStatus.js';
import { scoreRowOf, type RunVerdict } from './runVerdict.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';

export interface RunRecordDeps {
  store: Store;
  /** Where this host keeps sandboxes. */
  sandboxRoot: string;
  hostId: string;
  /** Where this host writes run dirs whatever the batch says (the worker's own `runs_dir`); absent: the batch's. */
  runsDir?: string;
  now(): Date;
}

/** Everything the run workflow hands over, once, when the run is over. */
export interface RunRecordInput {
  spec: RunSpec;
  status: RunStatus;
  facts: RunFacts;
  postconditions: CheckResult[];
  verdict: RunVerdict | null;
  anomalies: RunAnomaly[];
  error: string | null;
  /** Cleanup kept the sandbox on this host, so `evalflow resume` can continue the run. */
  parked?: boolean;
}

/**
 * The one owner of a run's record: its paths, the files of its run directory (config.yaml,
 * score.yaml, review.md, transcript.jsonl; env_checklist.yaml through `runFiles`) and its
 * row in the store. Stages ask it where things are and hand it what they learned; only it
 * decides what the record says.
 */
export function createRunRecord(deps: RunRecordDeps) {
  // The run dir is where this host's config puts it; the store's row says where, for viewers.
  const hostPaths = (spec: Pick<RunSpec, 'runId' | 'runsDir'>) => runPaths({ runId: spec.runId, runsDir: deps.runsDir ?? spec.runsDir }, deps.sandboxRoot);
  return {
    paths(spec: Pick<RunSpec, 'runId' | 'runsDir'>): RunPaths {
      return hostPaths(spec);
    },

    /** The run's row (running), its run directory and config.yaml. Idempotent. */
    async open(spec: RunSpec, temporal: { workflowId: string | null; runId: string | null }): Promise<RunPaths> {
      const paths = hostPaths(spec);
      await mkdir(paths.runDir, { recursive: true });
      await deps.store.upsertRun({
        run_id: spec.runId,
        batch_id: spec.batchId,
        case_id: spec.evalCase.id,
        case_version: spec.evalCase.version,
        case_hash: spec.evalCase.hash,
        candidate: spec.candidate.name,
        candidate_adapter: spec.candidate.adapter,
        models: {
          examiner: spec.examiner.model,
          judge: spec.judge.model,
          ...(spec.candidate.model ? { candidate: spec.candidate.model } : {}),
        },
        status: 'running',
        run_dir: paths.runDir,
        arm: spec.arm ?? null,
        attempt_index: spec.k ?? null,
        temporal_workflow_id: temporal.workflowId,
        temporal_run_id: temporal.runId,
        config: runConfig(spec) as unknown as Record<string, unknown>,
        spec: spec as unknown as Record<string, unknown>,
        started_at: deps.now().toISOString(),
      });
      await writeYamlFile(join(paths.runDir, 'config.yaml'), runConfig(spec));
      return paths;
    },

    /** What prepare learned: the workflow snapshot's identity, the project's revision, the CLI's version. */
    async notePrepared(spec: RunSpec, prepared: { workflowRev: string; workflowDirty: boolean; workflowHash: string; projectRev: string; cliVersion: string | null }): Promise<void> {
      await deps.store.updateRun(spec.runId, {
        workflow_rev: prepared.workflowRev,
        workflow_dirty: prepared.workflowDirty,
        workflow_hash: prepared.workflowHash,
        project_rev: prepared.projectRev,
        candidate_cli_version: prepared.cliVersion,
      });
    },

    /**
     * score.yaml (when judged), review.md, transcript.jsonl and the row's final state. Safe to
     * repeat. A judged run whose verdict has review reasons is recorded `needs_review`, its
     * result and overall left out of the row (so no pass rate counts it) until a person's
     * decision is on record; then it is `completed` with the person's result, the judge's
     * verdict unchanged beside it.
     */
    async finish(input: RunRecordInput): Promise<RunOutcome> {
      const { spec, facts, verdict } = input;
      const paths = hostPaths(spec);
      // A run recorded on a host other than the one that prepared it (its host was lost) has no run dir here yet.
      await mkdir(paths.runDir, { recursive: true });
      const placement = await deps.store.getWorkflowPlacement(spec.runId);
      const workflowUsage = (await deps.store.getWorkflowUsage([spec.runId])).map(({ run_id: _runId, ...row }) => row);
      const inlined = inlinedTriggers(placement);
      const checklist = await readEnvChecklist(paths.runDir).catch(() => null);
      const anomalies = [...input.anomalies];
      if (inlined && !anomalies.some((a) => a.kind === 'workflow_inlined')) anomalies.push({ kind: 'workflow_inlined', ...inlined });
      // The verify activity records what it restored in the checklist; the run's anomalies are said here, once.
      const restored = checklist?.protected_restored ?? [];
      if (restored.length > 0 && !anomalies.some((a) => a.kind === 'protected_changed')) anomalies.push({ kind: 'protected_changed', paths: restored });
      let status = input.status;
      let error = input.error;
      let review: string;
      let result: VerdictResult | null = null;
      let overall: number | null = null;
      if (isJudged(status) && verdict) {
        const { score } = verdict;
        await writeYamlFile(join(paths.runDir, 'score.yaml'), workflowUsage.length > 0 ? { ...score, workflow_usage: workflowUsage } : score);
        const stored = await deps.store.getReview(spec.runId);
        const decision = stored ? decisionOf(stored) : null;
        status = decision || score.review_reasons.length === 0 ? 'completed' : 'needs_review';
        result = decision ? decision.result : status === 'completed' ? score.result : null;
        overall = status === 'completed' ? score.overall : null;
        if (status === 'needs_review') error = `needs a person's review (the judge said ${score.result ?? 'no result'}): ${score.review_reasons.join('; ')}`;
        review = renderReview({ score, facts, anomalies, decision, workflowUsage, placement });
        await deps.store.saveScore(spec.runId, scoreRowOf(verdict));
      } else if (status === 'aborted') {
        review = renderAbortedReview({ runId: spec.runId, caseId: spec.evalCase.id, reason: input.error ?? 'aborted', preconditions: checklist?.preconditions ?? [], anomalies });
      } else {
        review = renderJudgeFailedReview({ runId: spec.runId, caseId: spec.evalCase.id, facts, error: `${status}: ${input.error ?? 'unknown error'}`, anomalies });
      }
      await writeFile(join(paths.runDir, 'review.md'), review);
      const events = await deps.store.getTranscript(spec.runId, { attempts: 'all' });
      await writeTranscriptFile(paths.transcriptFile, events);
      const tokens = runTokens(events, await deps.store.getSteps(spec.runId), verdict);
      // Enough to judge the run again later from the store (`evalflow rejudge`).
      const judgeInput: JudgeInputRecord | null =
        isJudged(input.status) || input.status === 'judge_failed' ? { facts, postconditions: input.postconditions, host_id: deps.hostId } : null;
      await deps.store.updateRun(spec.runId, {
        ...(judgeInput ? { judge_input: judgeInput as unknown as Record<string, unknown> } : {}),
        status,
        result,
        overall,
        anomalies,
        error,
        parked_host: input.parked ? deps.hostId : null,
        tokens,
        finished_at: deps.now().toISOString(),
      });
      return { runId: spec.runId, caseId: spec.evalCase.id, status, result, overall, runDir: paths.runDir, anomalies, ...(error ? { error } : {}) };
    },

    /**
     * For a run whose workflow failed before it could record itself (its host died, its run
     * directory vanished): its row must not stay `running`. A run that recorded itself is left
     * as it is. Returns whether the row was changed.
     */
    async markUnrecorded({ runId, status, error }: { runId: string; status: RunStatus; error: string }): Promise<boolean> {
      const run = await deps.store.getRun(runId);
      if (!run || !isUnfinished(run.status)) return false;
      await deps.store.updateRun(runId, { status, error, finished_at: deps.now().toISOString() });
      return true;
    },
  };
}

export type RunRecord = ReturnType<typeof createRunRecord>;

/** Statuses of a run that reached a verdict (its review, if it needs one, may be pending). */
function isJudged(status: RunStatus): boolean {
  return status === 'completed' || status === 'needs_review';
}
