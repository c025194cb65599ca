import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDashboard } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { AB_BATCH, AB_CASES, abRunId, fillAbStore } from '../support/abBatchFixture.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { DASHBOARD_PRICES } from '../support/dashboardFixture.js';

/**
 * The demo's A/B batch (with_workflow 4/5, no_workflow 3/5, fix-slug-dashes the one case
 * that differs) in dashboard.html, in Debian's chromium at 1280×800. The numbers expected
 * are worked out by hand: 80.0% and 60.0%; the per-case differences with_workflow −
 * no_workflow are 0, 0, 0, +1, 0, so their mean is +20.0 points; one run a side can never
 * reach p < 0.05, so every case is insufficient_data.
 */
describe('the A/B dashboard in a real browser', () => {
  let store: Store;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    store = await openStore({});
    const dir = await outputDir('ab-dashboard');
    const { summariesDir } = await fillAbStore(store, dir);
    file = join(summariesDir, 'dashboard.html');
    await writeDashboard({ store, prices: DASHBOARD_PRICES, path: file });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await store?.close();
  });

  const open = async (): Promise<{ page: Page; watch: Awaited<ReturnType<typeof watchedPage>>['watch'] }> => {
    const { page, watch } = await watchedPage(browser);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#ab-matrix');
    return { page, watch };
  };
  const onFirstScreen = async (page: Page, selector: string) => {
    const box = await page.locator(selector).boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= 800 && box.x + box.width <= 1280;
  };

  it('shows both arms, the difference with its interval and the caveat in words on the first screen', async () => {
    const { page, watch } = await open();
    expect(await page.locator('#ab-test h2').textContent()).toBe(`Did it help? A/B batch ${AB_BATCH}`);
    // The arm without the workflow is the baseline: a positive difference says the workflow helped.
    expect(await page.locator('.ab-arm .kpi-title').allTextContents()).toEqual(['no_workflow (workflow=none) · baseline', 'with_workflow (base)']);
    expect(await page.locator('.ab-arm[data-arm="no_workflow"] .value').textContent()).toBe('60.0%');
    expect(await page.locator('.ab-arm[data-arm="with_workflow"] .value').textContent()).toBe('80.0%');
    expect(await page.locator('.ab-difference .kpi-title').textContent()).toBe('difference with_workflow − no_workflow');
    expect(await page.locator('.ab-difference .value').textContent()).toBe('+20.0 points');
    expect(await page.locator('.ab-difference .interval').textContent()).toMatch(/^\[\+0\.0, \+\d+\.\d\] over 5 cases$/);
    expect(await page.locator('.ab-labels').textContent()).toBe('no_workflow → with_workflow, 5 cases: 0 regression · 0 improvement · 0 no_change · 5 insufficient_data · 0 not_comparable');
    expect(await page.locator('.ab-caveat').textContent()).toContain('5 of 5 cases have too few runs per arm for any difference to reach p < 0.05 (insufficient_data)');
    for (const selector of ['.ab-arm[data-arm="no_workflow"]', '.ab-arm[data-arm="with_workflow"]', '.ab-difference', '.ab-labels', '.ab-caveat']) {
      expect(await onFirstScreen(page, selector), selector).toBe(true);
    }
    // One row per case, both arms side by side; the case that differs reads +100 points, with
    // Newcombe's interval: 1 − √((1 − 0.2065)² + (0.7935 − 0)²) = −0.122, and 1 + 0 = 1.
    expect(await page.locator('#ab-matrix tbody tr').count()).toBe(5);
    const slug = page.locator('#ab-matrix tr[data-case="fix-slug-dashes"] td');
    expect(await slug.allTextContents()).toEqual(['fix-slug-dashes', ' 0/1 0.0% [0.0%–79.3%]', ' 1/1 100.0% [20.7%–100.0%]', '+100.0 [−12.2, +100.0]', 'insufficient_data']);
    await page.screenshot({ path: join(await outputDir('ab-dashboard'), 'first-screen.png') });
    expect(watch.errors).toEqual([]);
    expect(watch.offMachine).toEqual([]);
  });

  it('no two marks share a position, in the matrix or the timeline, and each carries its arm', async () => {
    const { page } = await open();
    for (const selector of ['#ab-matrix .ab-run', 'svg.timeline .mark']) {
      const boxes = await page.locator(selector).evaluateAll((marks) => marks.map((m) => m.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })));
      expect(boxes, selector).toHaveLength(10);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
          expect(overlap, `${selector} ${i} and ${j}`).toBe(false);
        }
      }
    }
    expect(await page.locator('#ab-matrix .ab-run[data-arm="no_workflow"]').count()).toBe(5);
    expect(await page.locator('svg.timeline .row-label').allTextContents()).toContain('fix-slug-dashes · no_workflow');
    // The arm filter narrows the matrix and the timeline to one arm.
    await page.selectOption('#filter-arm', 'no_workflow');
    await expect.poll(() => page.locator('svg.timeline .mark').count()).toBe(5);
    expect(await page.locator('#ab-matrix .ab-run').count()).toBe(5);
    expect(await page.locator('#ab-matrix .ab-run[data-arm="with_workflow"]').count()).toBe(0);
  });

  it('every link resolves: each run to its review.md, the batch to its compare report', async () => {
    const { page } = await open();
    // HTML and SVG links alike (an SVG <a> has no resolved .href).
    const all = await page.locator('a[href]').evaluateAll((links) => links.map((a) => new URL(a.getAttribute('href')!, document.baseURI).href));
    // 10 matrix runs, 10 timeline marks, the compare report.
    expect(all).toHaveLength(21);
    for (const href of all) {
      expect(href.startsWith('file:'), href).toBe(true);
      expect(existsSync(fileURLToPath(href)), href).toBe(true);
    }
    expect(await page.locator('#compare-link').getAttribute('href')).toBe(`compare-${AB_BATCH}.md`);
    const slugRun = abRunId('fix-slug-dashes', 'no_workflow');
    expect(fileURLToPath(await page.locator(`#ab-matrix .ab-run[data-run="${slugRun}"]`).evaluate((a) => (a as HTMLAnchorElement).href))).toMatch(new RegExp(`/${slugRun.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/review\\.md$`));
  });

  it('sort headers and marks are reachable by keyboard; Enter on a header sorts', async () => {
    const { page } = await open();
    const reached: string[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const a = document.activeElement!;
        return a.matches('button.sort') ? `sort:${a.textContent}` : a.matches('.ab-run') ? `run:${a.getAttribute('data-run')}` : a.matches('.mark-link') ? 'mark' : a.tagName;
      }));
    }
    expect(reached).toContain('sort:case');
    expect(reached).toContain('sort:label');
    for (const caseId of AB_CASES) expect(reached).toContain(`run:${abRunId(caseId, 'with_workflow')}`);
    expect(reached).toContain('mark');
    await page.locator('button.sort', { hasText: 'with_workflow − no_workflow' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await page.locator('#ab-matrix tbody tr').first().getAttribute('data-case')).toBe('fix-slug-dashes');
    expect(await page.locator('#ab-matrix th[aria-sort="descending"]').count()).toBe(1);
  });
});
