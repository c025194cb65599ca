import { ConfigError } from '../errors.js';
import { parseArmRef } from '../vocabulary/armRef.js';
import type { ComparisonFilter, Run, Store } from '../store/index.js';
import type { ComparisonSide } from './comparison.js';
import { loadRunsWithVerdicts } from './loadRuns.js';
import type { SideStats } from './sideStats.js';
import { sideStatsOfRows } from './sideStatsOfRows.js';
import { ranWithoutWorkflow } from './workflowRevision.js';

/** A comparison side's name resolved: its label and the filter selecting its runs. */
export interface ResolvedSide {
  label: string;
  filter: ComparisonFilter;
}

/**
 * The runs a comparison side names: a batch id (`batch-…`), one arm of a batch
 * (`batch-…:ARM`, or just `ARM` with `inBatch`), or a workflow_rev (a commit or its prefix of
 * at least 4 characters: the runs of that rev in the latest batch that ran it). An unknown
 * name is a ConfigError saying what it looked for.
 */
export async function selectSide(store: Store, name: string, inBatch?: string): Promise<ComparisonSide> {
  const side = await resolveSide(store, name, inBatch);
  return { label: side.label, entries: await loadRunsWithVerdicts(store, side.filter) };
}

/** A resolved side as counts the store groups per case (no run loaded), with the filter that selects it. */
export async function resolvedSideStats(store: Store, side: ResolvedSide): Promise<ResolvedSide & { stats: SideStats }> {
  return { ...side, stats: sideStatsOfRows(side.label, await store.comparisonCaseStats(side.filter)) };
}

/** What a side's name stands for (see selectSide), checked against the store. */
export async function resolveSide(store: Store, name: string, inBatch?: string): Promise<ResolvedSide> {
  const { batch: batchPart, arm: armPart } = parseArmRef(name, inBatch);
  if (batchPart && (await store.getBatch(batchPart))) {
    if (armPart && (await store.listRuns({ batchId: batchPart, arm: armPart, limit: 1 })).length === 0) {
      const arms = [...new Set((await store.listRuns({ batchId: batchPart })).map((r) => r.arm).filter(Boolean))];
      throw new ConfigError(`compare: batch ${batchPart} has no arm ${armPart}${arms.length ? `; its arms are ${arms.join(', ')}` : '; it has no arms'}`);
    }
    return { label: name, filter: { batchId: batchPart, ...(armPart ? { arm: armPart } : {}) } };
  }
  if (!armPart && name.length >= 4) {
    const byRev = await sideOfRev(store, name);
    if (byRev) return byRev;
  }
  const recent = (await store.listBatches({ limit: 5 })).map((b) => b.batch_id);
  throw new ConfigError(`compare: '${name}' is no batch, batch:arm or workflow_rev in the store${recent.length ? `; recent batches: ${recent.join(', ')}` : ''}`);
}

/** The runs of the latest batch that ran workflow_rev `rev` (or a rev starting with it); a run without any workflow has no rev. */
async function sideOfRev(store: Store, rev: string): Promise<ResolvedSide | undefined> {
  const exact = (await store.listRuns({ workflowRev: rev, limit: 1 })).filter((r) => !ranWithoutWorkflow(r));
  // A prefix is matched in SQL: reading every run to match it in memory grows with the store.
  const matching = exact.length > 0 ? exact : await store.listRuns({ workflowRevPrefix: rev, withWorkflow: true, limit: 1 });
  const latest = matching[0];
  if (!latest) return undefined;
  const workflowRev = latest.workflow_rev!;
  // Outside any batch, the side is every run of the rev, and its label names the newest one's batch.
  const newest: Run = latest.batch_id ? latest : (await store.listRuns({ workflowRev, limit: 1 }))[0]!;
  return { label: `workflow_rev ${rev} (batch ${newest.batch_id})`, filter: { ...(latest.batch_id ? { batchId: latest.batch_id } : {}), workflowRev } };
}
