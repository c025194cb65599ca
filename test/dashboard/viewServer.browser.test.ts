import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer } from '../../src/dashboard/index.js';
import { ConfigError } from '../../src/errors.js';
import { openStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { DASHBOARD_BATCHES, DASHBOARD_PRICES, fillDashboardStore, HOSTILE, SEEDED_RUN } from '../support/dashboardFixture.js';

/** The one run of the last batch that ran uncontained (isolation: none); the others ran contained. */
const UNCONTAINED_RUN = 'run-beta-cand-a@20260103T000000-2';

describe('evalflow view in a real browser', () => {
  let store: Store;
  let browser: Browser;
  let server: Server;
  let base: string;
  let shots: string;

  beforeAll(async () => {
    const runsDir = await tempDir('evalflow-view-');
    store = await openStore({});
    await fillDashboardStore(store, { hostile: true, runDir: runsDir });
    await mkdir(join(runsDir, SEEDED_RUN, 'workflow', 'skills'), { recursive: true });
    await writeFile(join(runsDir, SEEDED_RUN, 'review.md'), `# Review of ${SEEDED_RUN}\n\nThe tests ran. ${HOSTILE}\n`);
    await writeFile(join(runsDir, SEEDED_RUN, 'workflow', 'skills', 'testing.md'), 'run the tests\n');
    await store.updateRun(UNCONTAINED_RUN, { spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'none' } } });
    // The seeded run lost its first host and ran again on another.
    await store.saveRunHost({ run_id: SEEDED_RUN, generation: 0, host_id: 'host-a', claimed_at: '2026-01-03T00:00:01.000Z' });
    await store.saveRunHost({ run_id: SEEDED_RUN, generation: 1, host_id: 'host-b', claimed_at: '2026-01-03T00:01:00.000Z' });
    ({ server, url: base } = await startViewServer({ store, prices: DASHBOARD_PRICES, host: '127.0.0.1', port: 0, temporalUi: { url: 'http://127.0.0.1:8233', namespace: 'default' } }));
    shots = await outputDir('view');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  it('serves the dashboard live, with no console error and no request leaving 127.0.0.1', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(base);
    await page.waitForSelector('svg.timeline');
    expect(await page.locator('[data-kpi="completed"] .value').textContent()).toBe('9 of 16');
    expect(await page.locator(`nav a[href="/batches/${DASHBOARD_BATCHES[2]}"]`).count()).toBe(1);
    expect(watch.errors).toEqual([]);
    expect(watch.offMachine).toEqual([]);
  });

  it('the batch page lists the runs, sorts, filters and pages them', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/batches/${DASHBOARD_BATCHES[2]}`);
    await page.waitForSelector('#runs tr td');
    expect(await page.locator('#runs tr').count()).toBe(17);
    expect(await page.locator('#runs-count').textContent()).toBe('1–16 of 16');
    // The batch says it had an uncontained run, and its row says which.
    expect(await page.locator('#batch-uncontained').textContent()).toBe('⚠ uncontained: 1 run of this batch (isolation: none): their candidates ran outside a sandbox');
    expect(await page.locator('#runs td[data-uncontained]').count()).toBe(1);
    expect(await page.locator('#runs tr', { hasText: UNCONTAINED_RUN }).locator('td').nth(6).textContent()).toBe('⚠ none (uncontained)');
    expect(await page.locator('#runs tr', { hasText: SEEDED_RUN }).locator('td').nth(6).textContent()).toBe('sandbox');
    await page.locator('th[data-sort="overall"]').click();
    await page.locator('th[data-sort="overall"]').click();
    await expect.poll(() => page.locator('#runs tr:nth-child(2) td:nth-child(5)').textContent()).toBe('4');
    await page.fill('#runs-status', 'infra_error');
    await expect.poll(() => page.locator('#runs tr').count()).toBe(2);
    expect(await page.locator('#runs tr:nth-child(2) td:first-child').textContent()).toBe('run-alpha-cand-a@20260103T000000-4');
    expect(watch.errors).toEqual([]);
  });

  it("the run page: score, hard requirements, review, snapshot, Temporal link; the tool call unfolds; search finds turn 3", async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/runs/${encodeURIComponent(SEEDED_RUN)}`);
    await page.waitForSelector('#transcript .turn');
    expect(await page.locator('#score .scores').textContent()).toBe('result pass · overall 4 · compliance 4 · execution 4');
    expect(await page.locator('[data-field="isolation"]').textContent()).toBe('sandbox');
    expect(await page.locator('#run-uncontained').count()).toBe(0);
    expect(await page.locator('#run-hosts').textContent()).toBe('host-a (attempt 1, from 2026-01-03T00:00:01.000Z), host-b (attempt 2, from 2026-01-03T00:01:00.000Z)');
    expect(await page.locator('#hard-requirements li').textContent()).toContain('✓ met: runs the tests');
    expect(await page.locator('#review .review').textContent()).toContain(`The tests ran. ${HOSTILE}`);
    expect(await page.locator('#snapshot li').allTextContents()).toEqual(['skills/testing.md']);
    expect(await page.locator('#temporal-link').getAttribute('href')).toBe(`http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(`evalflow/run/${SEEDED_RUN}`)}`);
    expect(await page.locator('#transcript .turn').count()).toBe(3);
    const tool = page.locator('#event-1-2 details.tool-call');
    expect(await tool.getAttribute('open')).toBeNull();
    expect(await page.locator('#event-1-2 pre.full').isVisible()).toBe(false);
    expect(await page.locator('#event-1-1 details.thinking').getAttribute('open')).toBeNull();
    await page.locator('#event-1-2 summary').click();
    await expect.poll(() => page.locator('#event-1-2 pre.full').isVisible()).toBe(true);
    expect(await page.locator('#event-1-2 pre.full').textContent()).toContain('"id": "call-1"');
    // A hard requirement's evidence ("turn 1 seq 2") jumps to the event it cites, unfolded.
    await page.locator('#event-1-2 summary').click();
    expect(await page.locator('#event-1-2 details.tool-call').getAttribute('open')).toBeNull();
    await page.locator('#hard-requirements a.evidence').click();
    await expect.poll(() => page.locator('#event-1-2 details.tool-call').getAttribute('open')).toBe('');
    await page.fill('#transcript-search', 'zebra');
    await page.press('#transcript-search', 'Enter');
    await expect.poll(() => page.locator('#search-results li').count()).toBe(1);
    expect(await page.locator('#search-results li').getAttribute('data-turn')).toBe('3');
    await expect.poll(() => page.locator('#turn-3 .event.hit').count()).toBe(1);
    expect(await page.locator('#turn-3 .event.hit').textContent()).toContain('zebra');
    await page.screenshot({ path: join(shots, 'run.png'), fullPage: true });
    // A small copy for the README (docs/images/run-page.jpg is one of these).
    await page.locator('#transcript-viewer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'run-small.jpg'), type: 'jpeg', quality: 70 });
    expect(watch.errors).toEqual([]);
    expect(watch.offMachine).toEqual([]);
  });

  it('markup in a candidate reply, a tool summary and a case id stays text', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/runs/${encodeURIComponent(`run-${HOSTILE}-cand-a@20260103T000000-1`)}`);
    await page.waitForSelector('#transcript .turn');
    expect(await page.locator('#event-1-4 .content').textContent()).toContain(HOSTILE);
    await page.locator('#event-1-2 summary').click();
    expect(await page.locator('#event-1-2 summary').textContent()).toContain(`ran ${HOSTILE}`);
    expect(await page.locator('[data-field="case_id"]').textContent()).toBe(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(watch.dialogs).toEqual([]);
    expect(watch.errors).toEqual([]);
  });

  it('the page of an uncontained run says so above its facts', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/runs/${encodeURIComponent(UNCONTAINED_RUN)}`);
    await page.waitForSelector('#facts dl');
    expect(await page.locator('#run-uncontained').textContent()).toBe('⚠ uncontained (isolation: none): the candidate ran outside a sandbox');
    expect(await page.locator('[data-field="isolation"]').textContent()).toBe('none');
    expect(await page.locator('#run-hosts').textContent()).toBe('– (no host recorded)');
    expect(watch.errors).toEqual([]);
  });

  it("a run's JSON names the host of each attempt", async () => {
    const detail = (await (await fetch(`${base}/api/runs/${encodeURIComponent(SEEDED_RUN)}`)).json()) as { hosts: unknown };
    expect(detail.hosts).toEqual([
      { attempt: 1, host_id: 'host-a', claimed_at: '2026-01-03T00:00:01.000Z' },
      { attempt: 2, host_id: 'host-b', claimed_at: '2026-01-03T00:01:00.000Z' },
    ]);
  });

  it('is read-only: anything but GET is 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await fetch(`${base}/api/runs/${encodeURIComponent(SEEDED_RUN)}`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await fetch(`${base}/runs/no-such-run`)).status).toBe(404);
  });

  it('a port in use: one line naming it', async () => {
    const port = Number(new URL(base).port);
    const error = await startViewServer({ store, prices: {}, host: '127.0.0.1', port, temporalUi: null }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`port ${port} on 127.0.0.1 is in use; pick another with --port`);
  });

  it('shows a running batch live: its progress as the workflow answers, followed by a script rather than reloads', async () => {
    const batchId = 'batch-20260104T000000-dddddd';
    await store.upsertBatch({ batch_id: batchId, status: 'running', spec: {}, counts: { finished: 1 } });
    const asked: string[] = [];
    const batchProgress = async (id: string) => {
      asked.push(id);
      return { batchId: id, total: 10, started: 4, finished: 3, running: ['run-a', 'run-b'], outcomes: [] };
    };
    const live = await startViewServer({ store, prices: {}, host: '127.0.0.1', port: 0, temporalUi: null, batchProgress });
    try {
      const response = await fetch(live.url);
      const html = await response.text();
      expect(asked).toEqual([batchId]);
      expect(html).not.toContain('http-equiv="refresh"');
      expect(html).toMatch(new RegExp(`<li data-batch="${batchId}"><a href="/batches/${batchId}">${batchId}</a>: <span id="running-0">3 of 10 finished, 2 running \\(run-a, run-b\\)</span></li>`));
      // The header's policy allows both the page's script and the running list's, and no meta policy narrows it.
      expect(response.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+' 'sha256-[^']+';/);
      expect(html).not.toContain('http-equiv="Content-Security-Policy"');
      // What the running list polls: the store's states, the workflow's counts.
      expect(await (await fetch(`${live.url}/api/batches/${batchId}/live`)).json()).toEqual({ batchId, status: 'running', live: true, progress: { total: 10, finished: 3, running: 2, pending: 5, source: 'workflow' }, runs: [] });
      const silent = await startViewServer({ store, prices: {}, host: '127.0.0.1', port: 0, temporalUi: null, batchProgress: async () => null });
      try {
        expect(await (await fetch(silent.url)).text()).toContain(`${batchId}</a>: <span id="running-0">1 finished (the store&#39;s count; Temporal did not answer)</span>`);
      } finally {
        await new Promise((resolve) => silent.server.close(resolve));
      }
    } finally {
      await new Promise((resolve) => live.server.close(resolve));
      await store.updateBatch(batchId, { status: 'cancelled' });
    }
    // Without a running batch, the page has no running list to follow.
    expect(await (await fetch(base)).text()).not.toContain('id="running"');
  });
});
