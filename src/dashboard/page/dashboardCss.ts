/** The dashboard's styles, inline in the page (and shared with `evalflow view`). */
export const DASHBOARD_CSS = `
:root { font-family: system-ui, sans-serif; color: #1f2328; background: #fff; }
body { margin: 0 auto; max-width: 1000px; padding: 0 16px 48px; }
h1 { font-size: 1.4rem; margin: 16px 0 0; } h2 { font-size: 1.1rem; margin: 24px 0 8px; } h3 { font-size: 0.95rem; margin: 12px 0 4px; }
.generated, .note, .legend, .kpi-batch { color: #57606a; font-size: 0.85rem; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; padding: 10px; background: #f6f8fa; border-radius: 6px; margin-top: 12px; font-size: 0.85rem; }
.filters select, .filters input { font: inherit; max-width: 180px; }
.kpis { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; }
.kpis .kpi-batch { grid-column: 1 / -1; margin: 12px 0 0; }
.kpi { border: 1px solid #d0d7de; border-radius: 6px; padding: 10px; }
.kpi-title { font-size: 0.8rem; color: #57606a; } .kpi .value { font-size: 1.5rem; font-weight: 600; }
.kpi .interval, .kpi .change { font-size: 0.8rem; color: #57606a; }
.chart { width: 100%; height: auto; display: block; }
.chart .grid { stroke: #eaeef2; } .chart .axis, .chart .row-label { font-size: 11px; fill: #57606a; }
.chart .band { fill: #0969da; fill-opacity: 0.15; } .chart .rate { fill: none; stroke: #0969da; stroke-width: 2; }
.chart .mean { fill: none; stroke: #8250df; stroke-width: 1.5; stroke-dasharray: 5 4; } .chart .point { fill: #0969da; }
.chart .rev-mark { stroke: #bc4c00; stroke-dasharray: 2 3; } .chart .rev-label { font-size: 10px; fill: #bc4c00; }
.chart .mark { cursor: default; }
.chart .metric { fill: none; stroke-width: 2; } .chart .metric.metric-0, .chart .metric-dot.metric-0 { stroke: #0969da; } .chart .metric.metric-1, .chart .metric-dot.metric-1 { stroke: #8250df; } .chart .metric.metric-2, .chart .metric-dot.metric-2 { stroke: #1a7f37; }
.chart .metric-dot { fill: #fff; stroke-width: 2; } .chart text.legend { font-size: 11px; }
.marks-legend { display: flex; flex-wrap: wrap; gap: 4px 12px; } .legend-item svg { vertical-align: middle; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eaeef2; }
th { background: #f6f8fa; } th.sortable { cursor: pointer; }
.label-regression { color: #cf222e; font-weight: 600; } .label-improvement { color: #1a7f37; font-weight: 600; }
#tooltip { display: none; position: absolute; max-width: 420px; white-space: pre-wrap; background: #1f2328; color: #fff; font-size: 0.8rem; padding: 6px 8px; border-radius: 4px; pointer-events: none; z-index: 10; }
.uncontained-banner { background: #fff1e5; border: 1px solid #bc4c00; color: #953800; border-radius: 6px; padding: 8px 10px; font-weight: 600; font-size: 0.9rem; }
.kpis .uncontained-banner { grid-column: 1 / -1; margin: 0; }
#ab-test .ab-difference .value { color: #0969da; } .ab-caveat { margin: 4px 0; } .ab-labels { margin: 8px 0 0; font-size: 0.9rem; }
.ab-runs { display: inline-flex; gap: 3px; vertical-align: middle; } .ab-run { display: inline-block; line-height: 0; border-radius: 3px; }
.ab-run:focus-visible, .mark-link:focus-visible { outline: 2px solid #0969da; } .ab-rate { font-size: 0.8rem; color: #57606a; }
th button.sort { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; } th[aria-sort="ascending"] button.sort::after { content: " ▲"; } th[aria-sort="descending"] button.sort::after { content: " ▼"; }
#empty { padding: 32px; border: 1px dashed #d0d7de; border-radius: 6px; margin-top: 24px; }
`;
