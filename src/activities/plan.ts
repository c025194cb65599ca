import { FormatError } from '../errors.js';
import { loadEvalBank, loadEvalCase, type EvalCase } from '../evalset/index.js';
import type { BatchArm, BatchCounts, BatchSelection } from '../run/batchInput.js';
import { applyArm } from '../run/arms.js';
import { decisionRows } from '../run/decisionRows.js';
import type { RoundsState, UntilDecidedInput } from '../run/untilDecided.js';
import { planEntries, selectionDigest } from '../run/batchPlan.js';
import { loadCaseSet, writeOutPack, type TravelledCase } from '../run/caseFolder.js';
import { toCaseSnapshot } from '../run/caseSnapshot.js';
import { planningFailureMessage } from '../run/planningFailure.js';
import { makeRunId } from '../run/runId.js';
import type { RunSpec, RunTemplate } from '../run/runSpec.js';
import type { BatchStatus, PlanEntry } from '../store/index.js';
import { runCost } from '../summaries/prices.js';
import type { Prices } from '../vocabulary/prices.js';
import { isUnfinished } from '../vocabulary/runStatus.js';
import type { ActivityDeps } from './deps.js';

export interface PlanBatchRequest {
  batchId: string;
  selection: BatchSelection;
  /** Arm names of an A/B batch, in the order their runs alternate. */
  arms?: string[];
  /** What the batch row's `spec` says about the batch (candidate, parallelism, …), for listings. */
  summary: Record<string, unknown>;
  /** An until-decided batch also asks for its case ids, in plan order: its rounds follow them. */
  withCases?: boolean;
}

/** A page of the plan, or one round of an until-decided batch, as run specs. */
export interface CloseBatchRequest {
  batchId: string;
  status: BatchStatus;
  counts: BatchCounts;
  summary: Record<string, unknown>;
  /** An until-decided batch's rounds as it ended: the sequential test's decisions, stored per case. */
  decisions?: { untilDecided: Pick<UntilDecidedInput, 'design' | 'a' | 'b'>; state: RoundsState };
}

interface SpecsRequest {
  batchId: string;
  stamp: string;
  template: RunTemplate;
  arms?: BatchArm[];
}

export interface PlanRoundRequest extends SpecsRequest {
  /** Each open case and where its round starts in the plan (`roundOffsets`); one entry per arm from there. */
  offsets: { caseId: string; offset: number }[];
  round: number;
}

export function planActivities(deps: ActivityDeps) {
  return {
    /**
     * The batch's first step: its row in the store (running) and its plan, one entry per
     * (case, attempt), from the cases the client saved to the store (older batches: from the
     * bank as this worker sees it). Refuses cases changed since the client validated them.
     * Idempotent: a retry writes nothing twice.
     */
    async planBatch({ batchId, selection, arms, summary, withCases }: PlanBatchRequest): Promise<{ total: number; caseIds?: string[] }> {
      const bank: { cases: (EvalCase & Partial<Pick<TravelledCase, 'clientDir' | 'pack'>>)[]; problems: string[] } = selection.caseSet ? await loadCaseSet(deps, selection.caseSet) : await loadEvalBank(selection.paths, selection.only ? { only: selection.only } : {});
      if (bank.problems.length > 0) {
        const source = selection.caseSet ? `the cases the client saved (${selection.caseSet.slice(0, 19)}…)` : `the eval bank at ${selection.paths.join(', ')}`;
        throw new FormatError(planningFailureMessage({ batchId, hostId: deps.hostId, source, problems: bank.problems }), bank.problems);
      }
      const digest = selectionDigest(bank.cases);
      if (digest !== selection.digest) {
        throw new FormatError(`batch ${batchId}: the eval bank changed after the batch was started (selection ${selection.digest} → ${digest}); start a new batch`);
      }
      // A travelled case is planned under the client's folder, its identity, and read from its pack.
      const planned = bank.cases.map((c) => (c.pack && c.clientDir ? { id: c.id, dir: c.clientDir, sha256: c.sha256, pack: c.pack } : c));
      const entries = planEntries(planned, selection.runsPerCase, arms ?? []);
      if (!(await deps.store.getBatch(batchId))) {
        await deps.store.upsertBatch({ batch_id: batchId, status: 'running', spec: { ...summary, total: entries.length }, counts: {} });
      }
      await deps.store.savePlan(batchId, entries);
      return { total: entries.length, ...(withCases ? { caseIds: bank.cases.map((c) => c.id) } : {}) };
    },

    /** Run specs for one page of a batch's plan; a case changed since planning is refused. */
    async planRuns({ offset, limit, ...request }: SpecsRequest & { offset: number; limit: number }): Promise<RunSpec[]> {
      const specs: RunSpec[] = [];
      for (const entry of await deps.store.getPlan(request.batchId, offset, limit)) specs.push(await specOf(deps, request, entry));
      return specs;
    },

    /** Run specs for one round of an until-decided batch: each open case's attempt `round`, once per arm. */
    async planRound({ offsets, round, ...request }: PlanRoundRequest): Promise<RunSpec[]> {
      const arms = Math.max(1, request.arms?.length ?? 0);
      const specs: RunSpec[] = [];
      for (const { caseId, offset } of offsets) {
        const entries = await deps.store.getPlan(request.batchId, offset, arms);
        // The offsets follow planEntries' order; a plan laid out otherwise would pair the wrong runs.
        const misplaced = entries.length !== arms || entries.some((e) => e.case_id !== caseId || (e.k ?? 1) !== round);
        if (misplaced) throw new FormatError(`batch ${request.batchId}: plan entries from ${offset} are not round ${round} of case ${caseId} (found ${entries.map((e) => `${e.case_id}#${e.k ?? 1}`).join(', ') || 'none'})`);
        for (const entry of entries) specs.push(await specOf(deps, request, entry));
      }
      return specs;
    },

    /** What the batch's finished runs cost at these prices, or null when any run's cost is unknown (no usage, or a model without a price). */
    async batchSpend({ batchId, prices }: { batchId: string; prices: Prices }): Promise<number | null> {
      let usd = 0;
      for (const run of await deps.store.listRuns({ batchId })) {
        if (isUnfinished(run.status)) continue;
        const cost = runCost(run.tokens, run.models, prices).total;
        if (cost === null) return null;
        usd += cost;
      }
      return usd;
    },

    /** The batch row's counts as runs finish (the workflow coalesces calls). */
    async updateBatchCounts({ batchId, counts }: { batchId: string; counts: BatchCounts }): Promise<void> {
      await deps.store.updateBatch(batchId, { counts });
    },

    /** The batch row's final status and counts, and an until-decided batch's decisions (before its status says it ended). */
    async closeBatch({ batchId, status, counts, summary, decisions }: CloseBatchRequest): Promise<void> {
      if (decisions) await deps.store.saveBatchDecisions(batchId, decisionRows(decisions.untilDecided, decisions.state));
      // A batch that failed to plan never got its row.
      if (await deps.store.getBatch(batchId)) await deps.store.updateBatch(batchId, { status, counts });
      else await deps.store.upsertBatch({ batch_id: batchId, status, counts, spec: summary });
    },
  };
}

/** One plan entry as a run spec, its case read from its pack (or, in plans made from paths, the bank as the worker sees it); refused if it changed since planning. */
async function specOf(deps: ActivityDeps, { batchId, stamp, template, arms = [] }: SpecsRequest, entry: PlanEntry): Promise<RunSpec> {
  const evalCase = await loadEvalCase(entry.case_pack ? await writeOutPack(deps, entry.case_pack, entry.case_id) : entry.case_dir);
  if (evalCase.sha256 !== entry.case_hash) {
    throw new FormatError(`${entry.case_dir}: the eval case changed after batch ${batchId} was planned (hash ${entry.case_hash.slice(0, 12)} → ${evalCase.sha256.slice(0, 12)}); start a new batch`);
  }
  // A travelled case keeps the client's folder as its identity; each host runs from its own copy of the pack.
  const snapshot = entry.case_pack ? { ...toCaseSnapshot(evalCase), dir: entry.case_dir, pack: entry.case_pack } : toCaseSnapshot(evalCase);
  const k = entry.k ?? undefined;
  const arm = entry.arm ? arms.find((a) => a.name === entry.arm) : undefined;
  if (entry.arm && !arm) throw new FormatError(`batch ${batchId}: plan entry ${entry.idx} names arm ${entry.arm}, which the batch does not have`);
  const armed = applyArm(template, arm);
  return {
    runId: makeRunId(evalCase.id, armed.candidate.name, stamp, k, arm?.name),
    batchId,
    ...(k !== undefined ? { k } : {}),
    ...(arm ? { arm: arm.name } : {}),
    evalCase: snapshot,
    ...armed,
    createdAt: deps.now().toISOString(),
  };
}
