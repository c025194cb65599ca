import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildDashboard, fileLinks, renderDashboard } from './index.js';
import type { Store } from '../store/index.js';
import { loadRunsWithVerdicts, pagesOfRunsWithVerdicts } from '../summaries/loadRuns.js';
import { renderBatchInsights } from '../summaries/batchInsights.js';
import { renderLatest } from '../summaries/latestMarkdown.js';
import { batchStats, renderLatestStats } from '../summaries/latestStats.js';
import { loadTriggerObservations, triggerQuality } from '../summaries/triggerQuality.js';
import { renderScoreHistoryLines, scoreHistoryLine, type ScoreHistoryLine } from '../summaries/scoreHistory.js';
import { headlineBatch, latestOfSelection, sameSelection, selectionFolder, type BatchSelection } from '../summaries/selection.js';
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
  /** The batch latest.md describes: the newest batch of the headline selection up to `batchId` (see headlineBatch). */
  headlineBatchId: string | null;
  files: string[];
}

/**
 * Rebuilds `summaries/` from the store (the source of truth; every file is a view):
 * latest.md, latest-stats.yaml and batch-insights.md for the headline batch, score-history.yaml
 * for every completed run ever, dashboard.html over the whole history. The headline is the
 * newest batch that ran every case of the one before it (headlineBatch): a follow-up batch over
 * fewer or other cases gets the same three files in `selections/<its selection>/` instead, so it
 * never shrinks nor replaces the headline. Each file is written aside and renamed, so readers
 * never see half of one.
 */
export async function writeSummaries(request: SummariesRequest): Promise<SummariesReport> {
  const { store, summariesDir, prices } = request;
  await mkdir(summariesDir, { recursive: true });
  const files: string[] = [];
  const put = async (name: string, content: string) => {
    const path = join(summariesDir, name);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, content);
    await rename(tmp, path);
    files.push(path);
  };
  const history: ScoreHistoryLine[] = [];
  const ran = new Map<string, { cases: Set<string>; arms: Set<string> }>();
  for await (const page of pagesOfRunsWithVerdicts(store, {})) {
    for (const entry of page) {
      const line = scoreHistoryLine(entry);
      if (line) history.push(line);
      const { batch_id: batchId, case_id: caseId, arm } = entry.run;
      if (!batchId) continue;
      const seen = ran.get(batchId) ?? { cases: new Set<string>(), arms: new Set<string>() };
      seen.cases.add(caseId);
      if (arm) seen.arms.add(arm);
      ran.set(batchId, seen);
    }
  }
  await put('score-history.yaml', renderScoreHistoryLines(history));
  await put('dashboard.html', renderDashboard(await buildDashboard({ store, prices, links: fileLinks(summariesDir) })));
  const batch = request.batchId ? await store.getBatch(request.batchId) : ((await store.listBatches({ limit: 1 }))[0] ?? null);
  if (!batch) {
    await put('latest.md', '# No batches yet\n\nRun `evalflow run` to make one; this file is rebuilt at the end of every batch (or with `evalflow summarize`).\n');
    return { batchId: null, headlineBatchId: null, files };
  }
  const selections: BatchSelection[] = (await store.listBatches({})).map((b) => ({ batchId: b.batch_id, createdAt: b.created_at, cases: ran.get(b.batch_id)?.cases ?? new Set(), arms: ran.get(b.batch_id)?.arms ?? new Set() }));
  const own = selections.find((s) => s.batchId === batch.batch_id)!;
  const headline = headlineBatch(selections, batch.batch_id) ?? own;
  const describe = async (batchId: string, folder: string) => {
    const described = batchId === batch.batch_id ? batch : (await store.getBatch(batchId))!;
    const entries = await loadRunsWithVerdicts(store, { batchId });
    const stats = {
      ...batchStats(described, entries, prices, await store.getJudgings(entries.map((e) => e.run.run_id)), await store.getBatchDecisions(batchId)),
      triggerQuality: triggerQuality(await loadTriggerObservations(store, entries)),
    };
    const dir = join(summariesDir, folder);
    await put(join(folder, 'latest.md'), renderLatest(described, stats, entries, dir));
    await put(join(folder, 'latest-stats.yaml'), renderLatestStats(stats));
    await put(join(folder, 'batch-insights.md'), renderBatchInsights(described.batch_id, entries, dir));
  };
  await describe(headline.batchId, '');
  if (!sameSelection(own, headline)) await describe(latestOfSelection(selections, own).batchId, join('selections', selectionFolder(own)));
  return { batchId: batch.batch_id, headlineBatchId: headline.batchId, files };
}
