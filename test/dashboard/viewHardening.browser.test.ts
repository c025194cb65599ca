import { request as httpRequest, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/dashboard/contentSecurity.js';
import { startViewServer } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { CHROMIUM, watchedPage } from '../support/browser.js';
import { DASHBOARD_PRICES, fillDashboardStore, SEEDED_RUN } from '../support/dashboardFixture.js';

/** A GET with a Host header of our choosing (fetch may not set it). */
function get(base: string, path: string, host?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers: host === undefined ? {} : { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('evalflow view refuses what a hostile page or a bad link sends', () => {
  let store: Store;
  let server: Server;
  let base: string;
  let port: number;
  let browser: Browser;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store, { hostile: true });
    ({ server, url: base } = await startViewServer({ store, prices: DASHBOARD_PRICES, host: '127.0.0.1', port: 0, temporalUi: null }));
    port = Number(new URL(base).port);
    // evil.example resolves to this machine, as a DNS-rebinding site's name would.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--host-resolver-rules=MAP evil.example 127.0.0.1'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  it('answers 421 to a Host that is not loopback or the bound address, or names another port', async () => {
    for (const host of [`evil.example:${port}`, `attacker.test:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `127.0.0.1.evil.example:${port}`]) {
      const response = await get(base, `/api/runs/${encodeURIComponent(SEEDED_RUN)}`, host);
      expect([host, response.status]).toEqual([host, 421]);
      expect(response.body).not.toContain(SEEDED_RUN);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect([host, (await get(base, `/api/runs/${encodeURIComponent(SEEDED_RUN)}`, host)).status]).toEqual([host, 200]);
    }
  });

  it('a page rebinding its name to 127.0.0.1 in Chromium reads nothing', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://evil.example:${port}/api/runs/${encodeURIComponent(SEEDED_RUN)}`);
    expect(response!.status()).toBe(421);
    expect(await page.textContent('body')).not.toContain('"run_id"');
    await page.close();
  });

  it('a bad query string or path is 400 with a plain message, never SQL or schema internals', async () => {
    const cases: [string, string][] = [
      ['/api/batches/b/runs?limit=99999', "bad request: query parameter limit: expected at most 500, found '99999'\n"],
      ['/api/batches/b/runs?offset=-3', "bad request: query parameter offset: expected at least 0, found '-3'\n"],
      ['/api/batches/b/runs?sort=1;DROP', "bad request: query parameter sort: expected one of run_id, case_id, arm, status, overall, finished_at, isolation, found '1;DROP'\n"],
      ['/api/batches/b/runs?limit=abc', "bad request: query parameter limit: expected a number, found 'abc'\n"],
      [`/api/runs/${encodeURIComponent(SEEDED_RUN)}/transcript?turns=2.5`, "bad request: query parameter turns: expected a whole number, found '2.5'\n"],
      [`/runs/${encodeURIComponent(SEEDED_RUN)}?turns=0`, "bad request: query parameter turns: expected more than 0, found '0'\n"],
      ['/runs/%zz', "bad request: path segment '%zz' has a malformed percent escape\n"],
    ];
    for (const [path, message] of cases) {
      const response = await get(base, path);
      expect([path, response.status, response.body]).toEqual([path, 400, message]);
    }
  });

  it('every page carries a CSP allowing only its own scripts, and the pages work under it in Chromium', async () => {
    for (const path of ['/', `/runs/${encodeURIComponent(SEEDED_RUN)}`]) {
      const response = await get(base, path);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toBe(contentSecurityPolicy(response.body, { served: true }));
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('unsafe-inline\'; script');
      expect(csp).toContain("frame-ancestors 'none'");
    }
    const { page, watch } = await watchedPage(browser);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(base);
    await page.waitForSelector('svg.timeline');
    await page.goto(`${base}/runs/${encodeURIComponent(SEEDED_RUN)}`);
    await page.waitForSelector('#transcript .turn');
    // A script the page did not bring is refused by the policy.
    const injected = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = 1';
      document.body.append(script);
      return (window as unknown as { __injected?: number }).__injected ?? null;
    });
    expect(injected).toBeNull();
    expect(violations.length).toBe(1);
    expect(watch.errors.filter((e) => !/Content Security Policy/i.test(e))).toEqual([]);
  });
});
