import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { reportArms } from '../../../src/cli/output/armsReport.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { aHistoryRun } from '../../support/historyRun.js';

/**
 * The demo's A/B batch in small: with_workflow passes both cases, no_workflow fails
 * fix-slug-dashes. Each comparison must be printed and written once, in one direction:
 * with_workflow − no_workflow (the arm without the workflow is the baseline, though given second).
 */
describe('reportArms', () => {
  const batchId = 'batch-20260301T000000-eeeeee';
  const arms = [
    { name: 'with_workflow', change: 'base' },
    { name: 'no_workflow', change: 'workflow=none', noWorkflow: true },
  ];
  let store: Store;
  let root: string;

  beforeAll(async () => {
    store = await openStore({});
    root = await tempDir('evalflow-arms-');
    await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: { arms: arms.map(({ name, change }) => ({ name, change })) }, created_at: '2026-03-01T00:00:00Z' });
    const outcomes: [string, string, 'pass' | 'fail'][] = [
      ['fix-slug-dashes', 'with_workflow', 'pass'],
      ['fix-slug-dashes', 'no_workflow', 'fail'],
      ['add-truncate', 'with_workflow', 'pass'],
      ['add-truncate', 'no_workflow', 'pass'],
    ];
    for (const [i, [caseId, arm, result]] of outcomes.entries()) {
      const runId = `run-${caseId}-builtin@20260301T000000-${arm}`;
      const none = arm === 'no_workflow';
      await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'builtin', status: 'completed', arm, workflow_rev: none ? 'none' : 'b37a78dc', spec: none ? { noWorkflow: true } : {}, run_dir: join(root, 'runs', runId) }));
      await store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, judge_model: 'j', judged_at: `2026-03-01T00:00:0${i}Z` });
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  it('prints and writes each arm against the baseline once, in that direction', async () => {
    const io = memoryIo(root);
    await reportArms(store, batchId, arms, join(root, 'summaries'), io);
    const out = io.stdout.join('\n');
    expect(out.match(/^comparison \S+ → \S+:$/gm)).toEqual(['comparison no_workflow → with_workflow:']);
    expect(out).toContain('(no_workflow runs without the workflow: a regression is a case the workflow makes worse)');
    const rows = io.stdout.filter((line) => /fix-slug-dashes\s+1\/1/.test(line));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^insufficient_data\s+fix-slug-dashes\s+1\/1\s+0% \(0–79\) → 100% \(21–100\)\s+\+100/);
    // Never the opposite sign of the same comparison.
    expect(out).not.toMatch(/100% \(21–100\) → 0% \(0–79\)/);
    expect(out).not.toContain('workflow impact');
    expect(out).toContain('trigger quality (with_workflow)');

    const markdown = await readFile(join(root, 'summaries', `compare-${batchId}.md`), 'utf8');
    expect(markdown.match(/^# /gm)).toHaveLength(1);
    expect(markdown).toContain(`# ${batchId}: no_workflow → with_workflow`);
    expect(markdown.match(/\| fix-slug-dashes \|/g)).toHaveLength(1);
    expect(markdown).toContain('| insufficient_data | fix-slug-dashes | 1/1 | 0% (0–79) → 100% (21–100) | +100 (');
  });
});
