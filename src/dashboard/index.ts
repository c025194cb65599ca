export { buildDashboard, type DashboardRequest } from './buildDashboard.js';
export { markKind } from './markKind.js';
export { fileLinks, viewerLinks, type RunLinks } from './runLinks.js';
export { groupRows, kpisOf, selectCells, selectMarks, totalsOf, trendOf, type BatchKpis, type DashboardStats, type GroupRow, type Kpis, type Totals, type TrendPoint } from './aggregate.js';
export { DashboardFilterSchema, DashboardSchema, MarkKindSchema, NONE, type Dashboard, type DashboardFilter, type MarkKind } from './schema.js';
export { renderDashboard, scriptJson } from './renderDashboard.js';
export { writeDashboard, type DashboardWriteRequest } from './writeDashboard.js';
export { startViewServer, type ViewServerOptions } from './view/viewServer.js';
export { recordLiveView, runningLiveView, type LiveViewRecord } from './liveViewRecord.js';
