import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDashboard } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { DASHBOARD_PRICES, fillDashboardStore, HOSTILE, HOSTILE_IMG, markUncontained, UNCONTAINED_RUNS } from '../support/dashboardFixture.js';

/**
 * dashboard.html in Debian's chromium, over the builders' store with a hostile case added
 * (its id and judge summary are markup). Expected numbers are worked out by hand from the
 * fixture: the last batch has 16 runs, 9 judged (alpha 3, beta 2, gamma 3, the hostile case
 * 1), 5 passed (alpha 2, gamma 3).
 */
describe('dashboard.html in a real browser', () => {
  let store: Store;
  let browser: Browser;
  let file: string;
  let dir: string;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store, { hostile: true });
    dir = await outputDir('dashboard');
    file = join(dir, 'dashboard.html');
    await writeDashboard({ store, prices: DASHBOARD_PRICES, path: file });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await store?.close();
  });

  it('loads with no console error and no request leaving the machine; KPIs are the store numbers', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('[data-kpi="pass-rate"]');
    const kpi = (id: string) => page.locator(`[data-kpi="${id}"] .value`).textContent();
    expect(await kpi('pass-rate')).toBe('55.6%');
    expect(await kpi('completed')).toBe('9 of 16');
    expect(await kpi('infra-error')).toBe('6.3%');
    expect(await kpi('judge-failed')).toBe('6.3%');
    // k = 1 (the hostile case has one judged run): (2/3 + 0 + 1 + 0) / 4.
    expect(await page.locator('[data-kpi="pass-hat-k"] .kpi-title').textContent()).toBe('pass^1');
    expect(await kpi('pass-hat-k')).toBe('0.417');
    // A running and a pending run: tokens and cost are unknown, not summed short.
    expect(await kpi('tokens')).toBe('unknown');
    // The last batch ran one case more than the one before (the hostile one): a change over other cases is never shown.
    expect(await page.locator('[data-kpi="pass-rate"] .change').textContent()).toBe('no change to show');
    expect(await page.locator('[data-kpi="pass-rate"] .interval').textContent()).toBe('[26.7%–81.1%]');
    // Over one case both batches ran: alpha 2 of 3 judged (66.7%) against 3 of 4 (75.0%) before: −8.3 points.
    await page.selectOption('#filter-case', 'alpha');
    await expect.poll(() => page.locator('[data-kpi="pass-rate"] .change').textContent()).toBe('−8.3% vs previous');
    await page.selectOption('#filter-case', '');
    expect(await page.locator('#workflow-usage tr', { hasText: 'skills/node-test' }).locator('td').allTextContents()).toEqual(['skills/node-test', 'skill', '2', '2 yes, 0 no', '2 yes, 0 no']);
    // The edit-prediction trend: one point per batch and metric, hover names the metric.
    const dots = page.locator('#edit-prediction-trend circle.metric-dot');
    expect(await dots.count()).toBe(3);
    expect(await page.locator('#edit-prediction-trend text.legend').allTextContents()).toEqual(['— delta chrF / 100', '– – exact-lines F1', '··· cursor exact match']);
    await dots.first().hover();
    expect(await page.locator('#tooltip').textContent()).toMatch(/delta chrF \/ 100 0\.600$/);
    await page.screenshot({ path: join(dir, 'dashboard.png'), fullPage: true });
    // A small copy for the README (docs/images/dashboard.jpg is one of these).
    await page.screenshot({ path: join(dir, 'dashboard-small.jpg'), type: 'jpeg', quality: 70 });
    expect(watch.errors).toEqual([]);
    expect(watch.offMachine).toEqual([]);
  });

  it('the timeline has one mark per run', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('svg.timeline');
    // 12 + 12 + 16 runs.
    expect(await page.locator('svg.timeline .mark').count()).toBe(40);
    expect(await page.locator('svg.timeline .mark-infra_error').count()).toBe(1);
    expect(await page.locator('svg.timeline .mark-pass').count()).toBe(23);
    // Every run ran contained: no banner, no marked run, no uncontained column.
    expect(await page.locator('.uncontained-banner').count()).toBe(0);
    expect(await page.locator('svg.timeline [data-uncontained]').count()).toBe(0);
    expect(await page.locator('#candidates th', { hasText: 'uncontained' }).count()).toBe(0);
    const run = 'run-alpha-cand-a@20260103T000000-4';
    expect(await page.locator(`svg.timeline .mark[data-run="${run}"] title`).textContent()).toContain('status: infra_error');
    // Hovering a mark shows its run id, rev, scores and the judge's summary.
    await page.locator(`svg.timeline .mark[data-run="run-alpha-cand-a@20260103T000000-3"]`).hover();
    await expect.poll(() => page.locator('#tooltip').isVisible()).toBe(true);
    expect((await page.locator('#tooltip').textContent())!.split('\n')).toEqual([
      'run-alpha-cand-a@20260103T000000-3',
      'status: fail',
      'rev: rev-two',
      'arm: A',
      'scores: overall 1.50, compliance 2.00, execution 1.00',
      'judge: alpha fail summary',
    ]);
  });

  it('a filter changes the charts and the URL fragment, and the fragment restores it', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('svg.timeline');
    const trendBefore = await page.locator('svg.trend').innerHTML();
    await page.selectOption('#filter-case', 'alpha');
    await page.waitForFunction(() => location.hash.includes('case=alpha'));
    // alpha: 4 + 4 + 5 runs; last batch 2 of 3.
    await expect.poll(() => page.locator('svg.timeline .mark').count()).toBe(13);
    expect(await page.locator('[data-kpi="pass-rate"] .value').textContent()).toBe('66.7%');
    expect(await page.locator('svg.trend').innerHTML()).not.toBe(trendBefore);
    await page.selectOption('#filter-rev', 'rev-one');
    await page.waitForFunction(() => location.hash.includes('rev=rev-one'));
    await expect.poll(() => page.locator('svg.timeline .mark').count()).toBe(4);
    const shared = page.url();
    const { page: other } = await watchedPage(browser);
    await other.goto(shared);
    await other.waitForSelector('svg.timeline');
    expect(await other.locator('svg.timeline .mark').count()).toBe(4);
    expect(await other.locator('#filter-case').inputValue()).toBe('alpha');
    expect(watch.errors).toEqual([]);
  });

  it('markup in a case id and a judge summary stays text and never runs', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('svg.timeline');
    const hostileRun = `run-${HOSTILE}-cand-a@20260103T000000-1`;
    const title = await page.evaluate((id) => [...document.querySelectorAll('svg.timeline .mark')].find((m) => m.getAttribute('data-run') === id)?.querySelector('title')?.textContent, hostileRun);
    expect(title).toContain(`judge: ${HOSTILE} ${HOSTILE_IMG}`);
    expect(await page.locator('#filter-case option', { hasText: HOSTILE }).count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.selectOption('#filter-case', HOSTILE);
    await expect.poll(() => page.locator('svg.timeline .mark').count()).toBe(1);
    expect(watch.dialogs).toEqual([]);
    expect(watch.errors).toEqual([]);
  });

  it('says on the last batch, on each run and per group which runs ran uncontained', async () => {
    const mixed = await openStore({});
    try {
      await fillDashboardStore(mixed);
      await markUncontained(mixed);
      const mixedFile = join(dir, 'dashboard-uncontained.html');
      await writeDashboard({ store: mixed, prices: DASHBOARD_PRICES, path: mixedFile });
      const { page, watch } = await watchedPage(browser);
      await page.goto(pathToFileURL(mixedFile).href);
      await page.waitForSelector('svg.timeline');
      expect(await page.locator('#uncontained-runs').textContent()).toBe('⚠ uncontained: 3 of 39 runs (isolation: none): their candidates ran outside a sandbox');
      expect(await page.locator('#kpis #uncontained-batch').textContent()).toBe('⚠ uncontained: 2 of 15 runs (isolation: none) in this batch: their candidates ran outside a sandbox');
      const marked = await page.locator('svg.timeline .mark[data-uncontained="true"]').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-run')));
      expect(marked.sort()).toEqual([...UNCONTAINED_RUNS].sort());
      expect(await page.locator(`svg.timeline .mark[data-run="${UNCONTAINED_RUNS[0]}"] title`).textContent()).toContain('isolation: none (uncontained)');
      expect(await page.locator('#timeline .legend-item', { hasText: 'uncontained (isolation: none)' }).count()).toBe(1);
      expect(await page.locator('#candidates tr', { hasText: 'cand-a' }).locator('td').nth(10).textContent()).toBe('⚠ 3');
      // Narrowed to a case whose last-batch runs all ran contained, the batch's banner goes.
      await page.selectOption('#filter-case', 'gamma');
      await expect.poll(() => page.locator('#kpis #uncontained-batch').count()).toBe(0);
      expect(watch.errors).toEqual([]);
    } finally {
      await mixed.close();
    }
  });

  it('an empty store says there are no runs yet and how to make one', async () => {
    const empty = await openStore({});
    try {
      const emptyFile = join(dir, 'dashboard-empty.html');
      await writeDashboard({ store: empty, prices: {}, path: emptyFile });
      const { page, watch } = await watchedPage(browser);
      await page.goto(pathToFileURL(emptyFile).href);
      expect(await page.locator('#empty h2').textContent()).toBe('No runs yet');
      expect(await page.locator('#empty').textContent()).toContain('evalflow run');
      expect(watch.errors).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
