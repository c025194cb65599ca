import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { GATE_EXIT, reportGate } from '../../../src/cli/output/gateReport.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { aHistoryRun } from '../../support/historyRun.js';

/**
 * `evalflow run --gate` after an A/B batch, over a real store: main (the baseline arm) passes
 * both cases 4 of 4; pr passes add-truncate and fails fix-slug-dashes every time. Pooled, 12 of
 * 16 pass (75%), which the gate `pass_rate>=0.7` would call met; per arm, pr fails it and
 * regresses against main, and every line and JUnit testcase names its arm.
 */
describe('reportGate of an A/B batch', () => {
  const batchId = 'batch-20260302T000000-gggggg';
  let store: Store;
  let root: string;

  beforeAll(async () => {
    store = await openStore({});
    root = await tempDir('evalflow-gate-');
    await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: { arms: [{ name: 'main', change: 'workflow_rev=abc1234' }, { name: 'pr', change: 'base' }] }, created_at: '2026-03-02T00:00:00Z' });
    let n = 0;
    for (const caseId of ['add-truncate', 'fix-slug-dashes']) {
      for (const armName of ['main', 'pr']) {
        for (let k = 1; k <= 4; k++) {
          const runId = `run-${caseId}-x@20260302T000000-${k}+${armName}`;
          const result = armName === 'pr' && caseId === 'fix-slug-dashes' ? 'fail' : 'pass';
          await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'x', status: 'completed', arm: armName, attempt_index: k, workflow_rev: 'abc1234', run_dir: join(root, 'runs', runId) }));
          await store.saveScore(runId, { result, overall: result === 'pass' ? 4 : 1, judge_model: 'j', judged_at: `2026-03-02T00:00:${String(n++).padStart(2, '0')}Z` });
        }
      }
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  it('fails on the treated arm though the pooled rate meets it: exit 1, lines and JUnit testcases by arm', async () => {
    const io = memoryIo(root);
    const code = await reportGate(store, batchId, { gate: 'pass_rate>=0.7', junit: 'out/junit.xml' }, {}, io);
    expect(code).toBe(GATE_EXIT.failed);
    const gateLines = io.stdout.filter((l) => l.startsWith('gate: '));
    expect(gateLines).toEqual([
      'gate: per arm, never pooled: every arm but the baseline arm main must meet it and not regress against main',
      'gate: pr: FAILED: pass_rate>=0.7 (0.5)',
      'gate: pr: FAILED: no regression against the baseline arm main (1 case(s) regressed: fix-slug-dashes)',
      'gate: arm main is the baseline arm: the reference the other arms are measured against, not gated (pass_rate 1)',
    ]);
    const junit = await readFile(join(root, 'out/junit.xml'), 'utf8');
    expect(junit).toContain(`<testsuite name="${batchId}:pr" tests="8" failures="4" errors="0" skipped="0">`);
    expect(junit).toMatch(/<testcase classname="pr\.fix-slug-dashes" name="run-fix-slug-dashes-x@20260302T000000-1\+pr"/);
    expect(junit).toContain('<testcase classname="gate.pr" name="pass_rate&gt;=0.7" time="0">');
    expect(junit).toContain('<testsuite name="gate" tests="2" failures="2" errors="0" skipped="0">');
  });

  it('compares with --baseline like for like (the batch against itself: pr with pr), and still fails on the regression within the batch', async () => {
    const io = memoryIo(root);
    expect(await reportGate(store, batchId, { gate: 'pass_rate>=0.5', baseline: batchId }, {}, io)).toBe(GATE_EXIT.failed);
    const out = io.stdout.join('\n');
    expect(out).toContain('gate: pr: met: pass_rate>=0.5 (0.5)');
    expect(out).toContain(`gate: pr: against ${batchId}:pr:`);
    expect(out).toContain(`gate: pr: met: no regression against ${batchId}:pr (no case regressed)`);
    // Still failed: pr regresses against the baseline arm within the batch.
    expect(out).toContain('gate: pr: FAILED: no regression against the baseline arm main');
    expect(out).not.toContain('gate: met');
  });
});
