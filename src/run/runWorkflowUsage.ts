import type { Store } from '../store/index.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import { checkExpectations, detectWorkflowUsage, listWorkflowItems, type ExpectationResult, type WorkflowSupport, type WorkflowUsageRow } from '../workflowUsage/index.js';
import type { RunSpec } from './runSpec.js';

/**
 * Detects what the run's candidate did with its workflow, from the stored transcript, and
 * stores it (replacing what an earlier attempt stored). A run without a workflow has none.
 * On the run's host: the snapshot is read from the run directory.
 */
export async function recordWorkflowUsage(deps: { store: Store }, spec: RunSpec, snapshotDir: string, support: WorkflowSupport): Promise<WorkflowUsageRow[]> {
  const placement = await deps.store.getWorkflowPlacement(spec.runId);
  if (!placement) return [];
  const items = await listWorkflowItems(snapshotDir);
  const events = latestAttempts(await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
  const rows = detectWorkflowUsage({ items, placement, support, events, snapshotDir });
  await deps.store.saveWorkflowUsage(spec.runId, rows);
  return rows;
}

/** The stored usage of the run, and the case's expectations checked against it (none for a `workflow=none` run). */
export async function workflowEvidence(store: Store, spec: RunSpec): Promise<{ workflowUsage: WorkflowUsageRow[]; expectations: ExpectationResult[] }> {
  const workflowUsage = (await store.getWorkflowUsage([spec.runId])).map(({ run_id: _runId, ...row }) => row);
  const expectation = spec.evalCase.expectWorkflow;
  const expectations = expectation && !spec.noWorkflow ? checkExpectations(expectation, workflowUsage) : [];
  return { workflowUsage, expectations };
}
