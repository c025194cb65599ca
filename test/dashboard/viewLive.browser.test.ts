import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeOptions } from '../../src/cli/storeOptions.js';
import { loadSettings } from '../../src/config.js';
import { runningLiveView } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { cliEnv } from '../support/cliFolder.js';
import { startCli, type CliProcess } from '../support/cliProcess.js';
import { startHolder } from '../support/storeHolder.js';
import { freePort } from '../support/temporalServer.js';
import { aRun, aScore } from '../store/builders.js';

const BATCH = 'batch-live';

/**
 * The live view on the embedded default: another process holds PGlite (as a worker running a
 * batch does), `evalflow view` runs as its own process served by it, and this test writes the
 * batch's rows through the same holder. The open pages follow each change without a reload.
 */
describe('evalflow view follows a running batch on the embedded store', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  let holder: { stop(): Promise<void> };
  let store: Store;
  let view: CliProcess;
  let base: string;
  let browser: Browser;
  let shots: string;

  beforeAll(async () => {
    root = await tempDir('evalflow-view-live-');
    // No Temporal listens here: the pages show the store's counts and states.
    env = { ...cliEnv(root), EVALFLOW_TEMPORAL_PORT: String(await freePort()), EVALFLOW_TEMPORAL_UI_PORT: String(await freePort()) };
    holder = await startHolder(root, env);
    store = await openStore(storeOptions(await loadSettings(root, env)));
    await store.upsertBatch({ batch_id: BATCH, status: 'running', spec: { total: 3 }, counts: {} });
    await store.upsertRun(aRun({ run_id: 'run-live-1', batch_id: BATCH, case_id: 'alpha', status: 'running' }));
    await store.upsertRun(aRun({ run_id: 'run-live-2', batch_id: BATCH, case_id: 'beta', status: 'pending' }));
    view = startCli(['view', '--port', String(await freePort())], { cwd: root, env });
    base = /evalflow view: (\S+)/.exec(await view.waitForLine(/^evalflow view: /, 120_000))![1]!;
    browser = await launchChromium();
    shots = await outputDir('view-live');
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    view?.kill('SIGINT');
    await view?.exited;
    await store?.close();
    await holder?.stop();
  });

  /** What the run workflow's record stage writes at a run's end: its verdict, then its status. */
  async function finish(runId: string, result: 'pass' | 'fail'): Promise<void> {
    const now = new Date().toISOString();
    await store.saveScore(runId, aScore({ judged_at: now, result }));
    await store.updateRun(runId, { status: 'completed', finished_at: now });
  }

  it('is served by the holder of the store, not by opening it', () => {
    expect(store.servedBy).toMatch(/^process \d+ /);
  });

  it("the batch page shows each run's new state and the progress count as they change, without reload", async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/batches/${BATCH}`);
    await expect.poll(() => page.locator('#batch-progress').textContent(), { timeout: 15_000 }).toContain('running: 0 of 3 finished, 1 running, 2 not started');
    await expect.poll(() => page.locator('td[data-state="run-live-2"]').textContent()).toBe('pending');
    // A reload would drop this mark.
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

    await finish('run-live-1', 'pass');
    await store.updateRun('run-live-2', { status: 'running', started_at: new Date().toISOString() });
    await store.upsertRun(aRun({ run_id: 'run-live-3', batch_id: BATCH, case_id: 'gamma', status: 'pending' }));

    // The three writes may straddle a poll (every 2 s): each expectation waits for a later one.
    await expect.poll(() => page.locator('td[data-state="run-live-1"]').textContent(), { timeout: 15_000 }).toBe('completed (pass)');
    await expect.poll(() => page.locator('td[data-state="run-live-2"]').textContent(), { timeout: 15_000 }).toBe('running');
    await expect.poll(() => page.locator('a[data-run="run-live-1"]').textContent(), { timeout: 15_000 }).toBe('✓ pass');
    await expect.poll(() => page.locator('#batch-progress').textContent(), { timeout: 15_000 }).toContain('running: 1 of 3 finished, 1 running, 1 not started');
    await expect.poll(() => page.locator('#runs-count').textContent(), { timeout: 15_000 }).toBe('1–3 of 3');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    await page.screenshot({ path: join(shots, 'batch-live.png'), fullPage: true });
    expect(watch.errors).toEqual([]);
    expect(watch.offMachine).toEqual([]);
  });

  it("the dashboard's running list follows the batch too, and the static dashboard links to this view", async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(base);
    await page.waitForSelector('#running-0');
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
    await finish('run-live-2', 'fail');
    await expect.poll(() => page.locator('#running-0').textContent(), { timeout: 15_000 }).toContain('running: 2 of 3 finished, 0 running, 1 not started');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(watch.errors).toEqual([]);

    // `evalflow dashboard`, its own process as well, finds the viewer's record and links to it.
    const out = join(root, 'dashboard.html');
    const dashboard = startCli(['dashboard', '--out', out], { cwd: root, env });
    expect(await dashboard.exited, dashboard.lines.join('\n')).toBe(0);
    expect(dashboard.stdout).toContain(`it links to the live view at ${base} (evalflow view, process ${view.pid})`);
    const html = await readFile(out, 'utf8');
    expect(html).toMatch(/built \d{4}-\d\d-\d\dT[\d:.]+Z \(a snapshot\) · <a id="live-view" href="([^"]+)">the live view<\/a>/);
    expect(/id="live-view" href="([^"]+)"/.exec(html)![1]).toBe(base);
  });

  it('the batch page stops polling once the batch ends, and the record goes with the viewer', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(`${base}/batches/${BATCH}`);
    await finish('run-live-3', 'pass');
    await store.updateBatch(BATCH, { status: 'completed' });
    await expect.poll(() => page.locator('#batch-progress').textContent(), { timeout: 15_000 }).toBe('completed: 3 of 3 finished, 0 running, 0 not started');
    const settings = await loadSettings(root, env);
    expect((await runningLiveView(settings.stateDir))?.url).toBe(base);
    view.kill('SIGINT');
    expect(await view.exited).toBe(0);
    expect(await runningLiveView(settings.stateDir)).toBeNull();
  });
});
