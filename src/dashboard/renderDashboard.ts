import { InternalError } from '../errors.js';
import { binomial, passHatK, wilsonInterval, Z95 } from '../stats/index.js';
import { AGGREGATE_FUNCTIONS } from './aggregate.js';
import { contentSecurityPolicy } from './contentSecurity.js';
import { armSection } from './page/armSection.js';
import { dashboardPage } from './page/dashboardPage.js';
import { DASHBOARD_CSS } from './page/dashboardCss.js';
import { CHART_FUNCTIONS, MARK_SHAPES } from './page/svgCharts.js';
import type { Dashboard } from './schema.js';

/** Where the page's Content-Security-Policy goes once the page (and so its script's hash) is known. */
const CSP_SLOT = '{{content-security-policy}}';

/**
 * dashboard.html: one self-contained file (no request leaves it: styles, script and data are
 * inline). The model is embedded as JSON in a data block, escaped so no string in it can end
 * the block; the script is the source text of the same functions Node runs (aggregate.ts,
 * the charts, the statistics), so the page and the tests compute the same numbers.
 * `liveView`: the URL of an `evalflow view` running while the page was built, linked from its header.
 */
export function renderDashboard(model: Dashboard, { liveView }: { liveView?: string } = {}): string {
  const functions = [binomial, passHatK, wilsonInterval, ...AGGREGATE_FUNCTIONS, ...CHART_FUNCTIONS, armSection].map((f) => f.toString());
  const markLabels = Object.fromEntries(Object.entries(MARK_SHAPES).map(([kind, s]) => [kind, s.label]));
  const script = [
    '"use strict";',
    // A bundler that keeps function names may wrap nested functions in __name(); the page has none.
    'function __name(target) { return target; }',
    `const Z95 = ${Z95};`,
    `const MARK_SHAPES = ${scriptJson(MARK_SHAPES)};`,
    ...functions,
    `const dashboardPage = ${dashboardPage.toString()};`,
    'const model = JSON.parse(document.getElementById("dashboard-data").textContent);',
    'dashboardPage(document, model, { stats: { wilsonInterval, passHatK }, kpisOf, trendOf, groupRows, selectMarks, trendChart, timelineChart, metricsChart, markShape, uncontainedRing, svgElement, armSection,',
    `  markLabels: ${scriptJson(markLabels)} });`,
  ].join('\n');
  const uncontained = model.cells.uncontained.reduce((a, b) => a + b, 0);
  // In the HTML itself, so it shows before (and without) the script.
  const headline = uncontained === 0 ? '' : `<p class="uncontained-banner" id="uncontained-runs">⚠ uncontained: ${uncontained} of ${model.runs} run${model.runs === 1 ? '' : 's'} (isolation: none): their candidates ran outside a sandbox</p>`;
  const live = liveView ? ` (a snapshot) · <a id="live-view" href="${escapeAttribute(liveView)}">the live view</a>, which was running when this page was built` : '';
  if (/<\/script|<!--/i.test(script)) throw new InternalError('dashboard: the page script contains "</script" or "<!--", which would end its block early');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP_SLOT}">
<title>evalflow dashboard</title>
<style>${DASHBOARD_CSS}</style>
</head>
<body>
<header><h1>evalflow dashboard</h1><p class="generated">${model.runs} runs, built ${model.generatedAt}${live}</p>${headline}</header>
<main id="dashboard"><noscript>This dashboard draws its views with JavaScript.</noscript></main>
<script type="application/json" id="dashboard-data">${scriptJson(model)}</script>
<script>
${script}
</script>
</body>
</html>
`;
  // The policy allows exactly the page's own script, by its hash.
  return html.replace(CSP_SLOT, contentSecurityPolicy(html, { served: false }));
}

/**
 * JSON safe inside a <script> block: `<`, `>` and `&` as \u escapes (so no `</script>` or
 * `<!--` can appear), and the two line separators JavaScript once treated as newlines.
 */
function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
