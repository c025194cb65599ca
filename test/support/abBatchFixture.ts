import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../../src/store/index.js';
import { aHistoryRun } from './historyRun.js';

/**
 * The demo's A/B batch, by builders: five cases, one run per case and arm, arm with_workflow
 * (the base, listed first as the demo lists it) passes 4 of 5, no_workflow (workflow=none)
 * 3 of 5: add-truncate fails in both, fix-slug-dashes only without the workflow. Each run's
 * directory gets a review.md, and the summaries folder a compare-<batch>.md, so every link a
 * page draws has a file to land on.
 */
export const AB_BATCH = 'batch-20261204T100000-abcdef';
export const AB_CASES = ['add-truncate', 'add-word-count', 'fix-off-by-one', 'fix-slug-dashes', 'rename-helper'];
export const AB_ARMS = [{ name: 'with_workflow', change: 'base' }, { name: 'no_workflow', change: 'workflow=none' }];

export function abRunId(caseId: string, arm: string): string {
  return `${caseId}@${arm}@20261204T100000-1`;
}

export async function fillAbStore(store: Store, root: string): Promise<{ runsDir: string; summariesDir: string }> {
  const runsDir = join(root, 'runs');
  const summariesDir = join(root, 'summaries');
  await store.upsertBatch({ batch_id: AB_BATCH, status: 'completed', spec: { arms: AB_ARMS, runs_per_case: 1 }, created_at: '2026-12-04T10:00:00Z' });
  let clock = Date.parse('2026-12-04T10:00:00Z');
  for (const caseId of AB_CASES) {
    for (const arm of AB_ARMS) {
      const runId = abRunId(caseId, arm.name);
      const pass = !(caseId === 'add-truncate' || (caseId === 'fix-slug-dashes' && arm.name === 'no_workflow'));
      const runDir = join(runsDir, AB_BATCH, runId);
      await mkdir(runDir, { recursive: true });
      await writeFile(join(runDir, 'review.md'), `# ${runId}\n\n${pass ? 'pass' : 'fail'}\n`);
      // Both arms of a case finish in the same second: their marks must still not share a spot.
      const finished = new Date(clock + 30_000).toISOString();
      await store.upsertRun(aHistoryRun({
        run_id: runId, batch_id: AB_BATCH, case_id: caseId, candidate: 'builtin', status: 'completed', arm: arm.name, attempt_index: 1, run_dir: runDir,
        workflow_rev: arm.name === 'no_workflow' ? null : 'b37a78dc',
        temporal_workflow_id: `evalflow/run/${runId}`,
        started_at: new Date(clock).toISOString(), finished_at: finished, created_at: new Date(clock).toISOString(),
      }));
      await store.saveScore(runId, {
        result: pass ? 'pass' : 'fail', compliance: pass ? 4 : 2, execution_quality: pass ? 4 : 1, overall: pass ? 4 : 1.5,
        summary: `${caseId} ${arm.name} ${pass ? 'passed' : 'failed'}`,
        hard_requirements: [{ item: 'runs the tests', met: pass, evidence: 'turn 1 seq 2' }],
        suggestions: [], judge_model: 'judge-model', judged_at: finished,
      });
    }
    clock += 60_000;
  }
  await mkdir(summariesDir, { recursive: true });
  await writeFile(join(summariesDir, `compare-${AB_BATCH}.md`), `# ${AB_BATCH}\n`);
  return { runsDir, summariesDir };
}
