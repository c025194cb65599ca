import { ConfigError } from '../errors.js';
import { parseArmRef } from '../vocabulary/armRef.js';
import type { RunWithVerdict, Store } from '../store/index.js';
import type { ComparisonSide } from './comparison.js';
import { loadRunsWithVerdicts } from './loadRuns.js';
import { ranWithoutWorkflow } from './workflowRevision.js';

/**
 * The runs a comparison side names: a batch id (`batch-…`), one arm of a batch
 * (`batch-…:ARM`, or just `ARM` with `inBatch`), or a workflow_rev (a commit or its prefix of
 * at least 4 characters: the runs of that rev in the latest batch that ran it). An unknown
 * name is a ConfigError saying what it looked for.
 */
export async function selectSide(store: Store, name: string, inBatch?: string): Promise<ComparisonSide> {
  const { batch: batchPart, arm: armPart } = parseArmRef(name, inBatch);
  if (batchPart && (await store.getBatch(batchPart))) {
    const entries = await loadRunsWithVerdicts(store, { batchId: batchPart, ...(armPart ? { arm: armPart } : {}) });
    if (armPart && entries.length === 0) {
      const arms = [...new Set((await store.listRuns({ batchId: batchPart })).map((r) => r.arm).filter(Boolean))];
      throw new ConfigError(`compare: batch ${batchPart} has no arm ${armPart}${arms.length ? `; its arms are ${arms.join(', ')}` : '; it has no arms'}`);
    }
    return { label: name, entries };
  }
  if (!armPart && name.length >= 4) {
    const byRev = await runsOfRev(store, name);
    if (byRev.length > 0) return { label: `workflow_rev ${name} (batch ${byRev[0]!.run.batch_id})`, entries: byRev };
  }
  const recent = (await store.listBatches({ limit: 5 })).map((b) => b.batch_id);
  throw new ConfigError(`compare: '${name}' is no batch, batch:arm or workflow_rev in the store${recent.length ? `; recent batches: ${recent.join(', ')}` : ''}`);
}

/** The runs of the latest batch that ran workflow_rev `rev` (or a rev starting with it); a run without any workflow has no rev. */
async function runsOfRev(store: Store, rev: string): Promise<RunWithVerdict[]> {
  const exact = (await store.listRuns({ workflowRev: rev, limit: 1 })).filter((r) => !ranWithoutWorkflow(r));
  const matching = exact.length > 0 ? exact : (await store.listRuns({})).filter((r) => !ranWithoutWorkflow(r) && r.workflow_rev?.startsWith(rev));
  const latest = matching[0];
  if (!latest) return [];
  const batchRuns = await loadRunsWithVerdicts(store, latest.batch_id ? { batchId: latest.batch_id } : { workflowRev: latest.workflow_rev! });
  return batchRuns.filter((e) => e.run.workflow_rev === latest.workflow_rev);
}
