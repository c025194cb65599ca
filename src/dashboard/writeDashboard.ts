import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildDashboard, type DashboardRequest } from './buildDashboard.js';
import { renderDashboard } from './renderDashboard.js';
import { fileLinks } from './runLinks.js';

export interface DashboardWriteRequest extends DashboardRequest {
  /** The file to write, e.g. summaries/dashboard.html. */
  path: string;
  /** Where compare-<batch>.md files are (default: the folder of `path`). */
  summariesDir?: string;
  /** The URL of a running `evalflow view`, linked from the page's header. */
  liveView?: string;
}

/** Builds the dashboard from the store and writes it aside then renames it, so a reader never opens half of it. */
export async function writeDashboard(request: DashboardWriteRequest): Promise<{ path: string; bytes: number; runs: number }> {
  const model = await buildDashboard({ links: fileLinks(dirname(request.path), request.summariesDir), ...request });
  const html = renderDashboard(model, request.liveView ? { liveView: request.liveView } : {});
  await mkdir(dirname(request.path), { recursive: true });
  const tmp = `${request.path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, html);
  await rename(tmp, request.path);
  return { path: request.path, bytes: Buffer.byteLength(html), runs: model.runs };
}
