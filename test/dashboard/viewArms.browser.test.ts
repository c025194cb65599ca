import { writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { AB_BATCH, AB_CASES, abRunId, fillAbStore } from '../support/abBatchFixture.js';
import { launchChromium, outputDir, watchedPage } from '../support/browser.js';
import { DASHBOARD_PRICES } from '../support/dashboardFixture.js';

/** evalflow view over the demo's A/B batch: the batch grouped by case, a run's links, review.md as Markdown, evidence to its event. */
describe('evalflow view of an A/B batch in a real browser', () => {
  let store: Store;
  let browser: Browser;
  let server: Server;
  let base: string;
  const slug = abRunId('fix-slug-dashes', 'no_workflow');

  beforeAll(async () => {
    store = await openStore({});
    const { summariesDir } = await fillAbStore(store, await outputDir('view-arms'));
    // The judge cites an event by its turn and role, as its prompt asks: two tool calls in turn 1, the second cited.
    await store.appendTranscriptEvents([
      { run_id: slug, turn: 1, attempt: 1, seq: 0, ts: '2026-12-04T10:00:01.000Z', role: 'examiner', content: 'Fix the slug.' },
      { run_id: slug, turn: 1, attempt: 1, seq: 1, ts: '2026-12-04T10:00:02.000Z', role: 'candidate.tool_call.completed', content: 'cat src/slug.ts', tool: { id: 'c1', name: 'Bash', kind: 'shell', exit_code: 0 } },
      { run_id: slug, turn: 1, attempt: 1, seq: 2, ts: '2026-12-04T10:00:03.000Z', role: 'candidate.tool_call.completed', content: 'npm test: 1 failing', tool: { id: 'c2', name: 'Bash', kind: 'shell', exit_code: 1 } },
      { run_id: slug, turn: 1, attempt: 1, seq: 3, ts: '2026-12-04T10:00:04.000Z', role: 'candidate', content: 'Done.' },
    ]);
    await store.saveScore(slug, {
      result: 'fail', compliance: 2, execution_quality: 1, overall: 1.5, summary: 'no regression test',
      hard_requirements: [{ item: 'runs the tests', met: false, evidence: '[Turn 1][candidate.tool_call.completed] shell: npm test → 1 failing' }],
      suggestions: [], judge_model: 'judge-model', judged_at: '2026-12-04T10:01:00.000Z',
    });
    const run = (await store.getRun(slug))!;
    await writeFile(`${run.run_dir}/review.md`, '# Review\n\n- **failed**: no `regression` test\n- <img src=x onerror="window.__pwned=1">\n');
    ({ server, url: base } = await startViewServer({ store, prices: DASHBOARD_PRICES, host: '127.0.0.1', port: 0, temporalUi: null, summariesDir }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  it('the batch page groups the runs by case with the arms side by side, each run a link', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/batches/${AB_BATCH}`);
    await page.waitForSelector('#case-arms tr[data-case]');
    expect(await page.locator('#case-arms th').allTextContents()).toEqual(['case', 'with_workflow', 'no_workflow']);
    expect(await page.locator('#case-arms tr[data-case]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case')))).toEqual(AB_CASES);
    expect(await page.locator('#case-arms tr[data-case="fix-slug-dashes"] td').allTextContents()).toEqual(['fix-slug-dashes', '#1 ✓ pass', '#1 ✗ fail']);
    const hrefs = await page.locator('#case-arms a[href], #compare-link').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs).toHaveLength(11);
    for (const href of hrefs) expect((await page.request.get(href)).status(), href).toBe(200);
    expect(watch.errors).toEqual([]);
  });

  it('the dashboard it serves links each run to its page and the batch to its comparison page', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(base);
    await page.waitForSelector('#ab-matrix');
    expect(await page.locator(`#ab-matrix .ab-run[data-run="${slug}"]`).getAttribute('href')).toBe(`/runs/${encodeURIComponent(slug)}`);
    const hrefs = await page.locator('#dashboard a[href]').evaluateAll((links) => links.map((a) => new URL(a.getAttribute('href')!, document.baseURI).href));
    expect(hrefs).toHaveLength(21);
    for (const href of new Set(hrefs)) expect((await page.request.get(href)).status(), href).toBe(200);
    await page.locator('#compare-link').click();
    await page.waitForSelector('.markdown-page h3');
    expect(await page.locator('.markdown-page h3').textContent()).toBe(AB_BATCH);
  });

  it('a run page links to its batch, the other arm, previous and next; renders review.md; evidence opens the cited event', async () => {
    const { page, watch } = await watchedPage(browser);
    await page.goto(`${base}/runs/${encodeURIComponent(slug)}`);
    await page.waitForSelector('#run-links');
    expect(await page.locator('#batch-link').getAttribute('href')).toBe(`/batches/${AB_BATCH}`);
    expect(await page.locator('#same-case a').allTextContents()).toEqual([abRunId('fix-slug-dashes', 'with_workflow')]);
    // Reading order: by case, then arm (no_workflow before with_workflow), then attempt.
    expect(await page.locator('#previous-run').getAttribute('href')).toBe(`/runs/${encodeURIComponent(abRunId('fix-off-by-one', 'with_workflow'))}`);
    expect(await page.locator('#next-run').getAttribute('href')).toBe(`/runs/${encodeURIComponent(abRunId('fix-slug-dashes', 'with_workflow'))}`);
    // review.md as Markdown: a heading, a list with bold and code; the planted tag stays text.
    expect(await page.locator('#review .markdown h3').textContent()).toBe('Review');
    expect(await page.locator('#review .markdown li strong').textContent()).toBe('failed');
    expect(await page.locator('#review .markdown li code').textContent()).toBe('regression');
    expect(await page.locator('#review .markdown li').nth(1).textContent()).toBe('<img src=x onerror="window.__pwned=1">');
    expect(await page.locator('#review img').count()).toBe(0);
    // The evidence names turn 1's completed tool call about npm test: the second of two, unfolded.
    await page.locator('#hard-requirements a.evidence').click();
    await expect.poll(() => page.locator('.event.cited').count()).toBe(1);
    expect(await page.locator('.event.cited').getAttribute('id')).toBe('event-1-2');
    expect(await page.locator('.event.cited details').getAttribute('open')).toBe('');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(watch.errors).toEqual([]);
  });
});
