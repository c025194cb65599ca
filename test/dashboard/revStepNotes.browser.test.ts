import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboard, writeDashboard, type Dashboard } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../support/decidedBatch.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { aHistoryRun } from '../support/historyRun.js';

const DECIDED = 'batch-20260305T000000-decide';
const RUNNING = 'batch-20260308T000000-runnin';

/**
 * The dashboard's workflow_rev steps over batches run until decided (runs of one second: the
 * revisions sort by name): abc1234 is all of the
 * decided batch's runs, bcd5678 a plain batch's, cde1234 a plain batch's and a still-running
 * until-decided batch's. Each step that takes in such runs is Fisher's test and says so, naming
 * the batch; the step between two plain revisions would have none (the fixture of
 * buildDashboard.test.ts).
 */
describe('dashboard rev steps over batches run until decided', () => {
  let store: Store;
  let model: Dashboard;

  beforeAll(async () => {
    store = await openStore({});
    const root = '/nonexistent/evalflow-rev-notes';
    await seedDecidedBatch(store, root, DECIDED, DRIFTS_AND_IMPROVES);
    const seed = async (batchId: string, rev: string, arm?: string) => {
      for (const caseId of ['drifts', 'improves']) {
        for (let i = 1; i <= 3; i++) {
          const runId = `run-${caseId}-${batchId}-${i}${arm ? `+${arm}` : ''}`;
          await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'x', status: 'completed', attempt_index: i, workflow_rev: rev, run_dir: join(root, runId), ...(arm ? { arm } : {}) }));
          await store.saveScore(runId, { result: 'pass', overall: 4, judge_model: 'j', judged_at: '2026-03-07T00:00:00.000Z' });
        }
      }
    };
    await store.upsertBatch({ batch_id: 'batch-20260306T000000-plain', status: 'completed', spec: {} });
    await seed('batch-20260306T000000-plain', 'bcd5678');
    await store.upsertBatch({ batch_id: 'batch-20260307T000000-later', status: 'completed', spec: {} });
    await seed('batch-20260307T000000-later', 'cde1234');
    await store.upsertBatch({ batch_id: RUNNING, status: 'running', spec: { until_decided: { a: 'base', b: 'new', max_runs_per_case: 12 } } });
    await seed(RUNNING, 'cde1234', 'base');
    model = await buildDashboard({ store, prices: {} });
  });
  afterAll(async () => {
    await store?.close();
  });

  it("notes on each step which batch run until decided it takes runs of, and that its labels are Fisher's test", () => {
    expect(model.revSteps.map((s) => [s.previous, s.rev])).toEqual([
      ['abc1234', 'bcd5678'],
      ['bcd5678', 'cde1234'],
    ]);
    const [first, second] = model.revSteps;
    expect(first!.notes).toHaveLength(1);
    expect(first!.notes[0]).toMatch(new RegExp(`^side revision abc1234 \\(previous\\) takes in runs of batch ${DECIDED}, run until decided: `));
    expect(first!.notes[0]).toContain(`\`evalflow compare ${DECIDED}:base ${DECIDED}:new\``);
    expect(second!.notes).toEqual([`side revision cde1234 takes in runs of batch ${RUNNING}, run until decided, and stored no sequential decisions (it has not ended); these labels are Fisher's exact test on its runs, whose counts were chosen while looking: read them as approximate`]);
  });

  it('dashboard.html shows each note under its step, as text', async () => {
    const file = join(await outputDir('dashboard-rev-notes'), 'dashboard.html');
    await writeDashboard({ store, prices: {}, path: file });
    const browser = await launchChromium();
    try {
      const { page } = await watchedPage(browser);
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('#rev-steps');
      expect(await page.locator('#rev-steps .method-note').allTextContents()).toEqual(model.revSteps.flatMap((s) => s.notes.map((n) => `note: ${n}`)));
    } finally {
      await browser.close();
    }
  });
});
