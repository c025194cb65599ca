import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDashboard, DashboardSchema, fileLinks, renderDashboard, scriptJson } from '../../src/dashboard/index.js';
import { openStore } from '../../src/store/index.js';
import { writeSummaries } from '../../src/dashboard/writeSummaries.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { DASHBOARD_PRICES, fillDashboardStore, HOSTILE, markUncontained } from '../support/dashboardFixture.js';

describe('renderDashboard', () => {
  it('embeds JSON no string can break out of', () => {
    const hostile = { text: `</script><!-- ${HOSTILE} & \u2028\u2029` };
    const embedded = scriptJson(hostile);
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(embedded)).toEqual(hostile);
  });

  it('writes dashboard.html with the summaries; its data block is the model, and nothing refers outside the file', async () => {
    const store = await openStore({});
    try {
      await fillDashboardStore(store, { hostile: true });
      const dir = join(await tempDir('evalflow-dashboard-'), 'summaries');
      await writeSummaries({ store, summariesDir: dir, prices: DASHBOARD_PRICES });
      const html = await readFile(join(dir, 'dashboard.html'), 'utf8');
      const data = /<script type="application\/json" id="dashboard-data">(.*?)<\/script>/s.exec(html)![1]!;
      const model = DashboardSchema.parse(JSON.parse(data));
      expect(model.runs).toBe(40);
      expect(model.cases.map((c) => c.id)).toContain(HOSTILE);
      expect(html.match(/<script/g)).toHaveLength(2);
      // The page itself (the data block aside, which holds the planted markup as escaped text).
      expect(html.replace(data, '')).not.toMatch(/\b(src|href)=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
      expect(renderDashboard(await buildDashboard({ store, prices: DASHBOARD_PRICES, now: () => new Date(model.generatedAt), links: fileLinks(dir) }))).toBe(html);
      // Every run ran contained: no headline says otherwise.
      expect(html).not.toContain('id="uncontained-runs"');
    } finally {
      await store.close();
    }
  });

  it('leads with how many runs ran uncontained, in the HTML itself (before any script runs)', async () => {
    const store = await openStore({});
    try {
      await fillDashboardStore(store);
      await markUncontained(store);
      const html = renderDashboard(await buildDashboard({ store, prices: DASHBOARD_PRICES }));
      const header = /<header>(.*?)<\/header>/s.exec(html)![1]!;
      expect(header).toContain('<p class="uncontained-banner" id="uncontained-runs">⚠ uncontained: 3 of 39 runs (isolation: none): their candidates ran outside a sandbox</p>');
    } finally {
      await store.close();
    }
  });
});
