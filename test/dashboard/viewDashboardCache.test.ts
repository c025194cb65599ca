import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewServer } from '../../src/dashboard/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { aRun } from '../store/builders.js';
import { DASHBOARD_BATCHES, DASHBOARD_PRICES, fillDashboardStore } from '../support/dashboardFixture.js';

/** The header line the dashboard page carries: how many runs it counts and when it was built. */
const generated = (html: string) => /<p class="generated">(\d+) runs, built ([^<]+)<\/p>/.exec(html)!.slice(1);

describe("evalflow view's first page over an unchanged and a changed store", () => {
  let store: Store;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    store = await openStore({});
    await fillDashboardStore(store);
    ({ server, url: base } = await startViewServer({ store, prices: DASHBOARD_PRICES, host: '127.0.0.1', port: 0, temporalUi: null }));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
  });

  const firstPage = async () => {
    const response = await fetch(`${base}/`);
    expect(response.status).toBe(200);
    return response.text();
  };

  it('serves the page it built while no write happened, and builds anew after one (the new run counted and drawn; the old page marked stale until then)', async () => {
    const [runs, builtAt] = generated(await firstPage());
    expect(generated(await firstPage())).toEqual([runs, builtAt]);
    const runId = 'run-zeta-cand-a@20260103T000000-1';
    await store.upsertRun(aRun({ run_id: runId, batch_id: DASHBOARD_BATCHES[2]!, case_id: 'zeta', status: 'completed', finished_at: '2026-01-03T12:00:00.000Z' }));
    // The build after a write may outlast the request's short wait: meanwhile the page built before is served, marked stale.
    let after = await firstPage();
    for (const deadline = Date.now() + 20_000; generated(after)[1] === builtAt && Date.now() < deadline; after = await firstPage()) {
      expect(after).toContain('id="dashboard-stale"');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after).not.toContain('id="dashboard-stale"');
    const [runsAfter, builtAfter] = generated(after);
    expect(Number(runsAfter)).toBe(Number(runs) + 1);
    expect(builtAfter).not.toBe(builtAt);
    expect(after).toContain(runId);
  });

  it('the live parts (the newest batches) are read at each request, not kept with the page', async () => {
    const batchId = 'batch-20260104T000000-dddddd';
    expect(await firstPage()).not.toContain(`/batches/${batchId}`);
    await store.upsertBatch({ batch_id: batchId, status: 'running', spec: {}, created_at: '2026-01-04T00:00:00Z' });
    expect(await firstPage()).toContain(`href="/batches/${batchId}"`);
  });
});
