import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDashboard, fileLinks, renderDashboard } from '../dashboard/index.js';
import type { Store } from '../store/index.js';
import { loadRunsWithVerdicts, pagesOfRunsWithVerdicts } from '../summaries/loadRuns.js';
import { renderBatchInsights } from '../summaries/batchInsights.js';
import { renderLatest } from '../summaries/latestMarkdown.js';
import { batchStats, renderLatestStats } from '../summaries/latestStats.js';
import { loadTriggerObservations, triggerQuality } from '../summaries/triggerQuality.js';
import { renderScoreHistoryLines, scoreHistoryLine, type ScoreHistoryLine } from '../summaries/scoreHistory.js';
import type { Prices } from '../vocabulary/prices.js';

export interface SummariesRequest {
  store: Store;
  summariesDir: string;
  prices: Prices;
  /** The batch latest.md and its siblings describe; default the newest batch in the store. */
  batchId?: string;
}

export interface SummariesReport {
  batchId: string | null;
  files: string[];
}

/**
 * Rebuilds `summaries/` from the store (the source of truth; every file is a view):
 * latest.md, latest-stats.yaml and batch-insights.md for one batch, score-history.yaml for
 * every completed run ever, dashboard.html over the whole history. Each file is written aside and renamed, so readers never see
 * half of one.
 */
export async function writeSummaries(request: SummariesRequest): Promise<SummariesReport> {
  const { store, summariesDir, prices } = request;
  await mkdir(summariesDir, { recursive: true });
  const files: string[] = [];
  const put = async (name: string, content: string) => {
    const path = join(summariesDir, name);
    const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, content);
    await rename(tmp, path);
    files.push(path);
  };
  const history: ScoreHistoryLine[] = [];
  for await (const page of pagesOfRunsWithVerdicts(store, { status: 'completed' })) {
    for (const entry of page) {
      const line = scoreHistoryLine(entry);
      if (line) history.push(line);
    }
  }
  await put('score-history.yaml', renderScoreHistoryLines(history));
  await put('dashboard.html', renderDashboard(await buildDashboard({ store, prices, links: fileLinks(summariesDir) })));
  const batch = request.batchId ? await store.getBatch(request.batchId) : ((await store.listBatches({ limit: 1 }))[0] ?? null);
  if (!batch) {
    await put('latest.md', '# No batches yet\n\nRun `evalflow run` to make one; this file is rebuilt at the end of every batch (or with `evalflow summarize`).\n');
    return { batchId: null, files };
  }
  const entries = await loadRunsWithVerdicts(store, { batchId: batch.batch_id });
  const stats = {
    ...batchStats(batch, entries, prices, await store.getJudgings(entries.map((e) => e.run.run_id))),
    triggerQuality: triggerQuality(await loadTriggerObservations(store, entries)),
  };
  await put('latest.md', renderLatest(batch, stats, entries, summariesDir));
  await put('latest-stats.yaml', renderLatestStats(stats));
  await put('batch-insights.md', renderBatchInsights(batch.batch_id, entries, summariesDir));
  return { batchId: batch.batch_id, files };
}
