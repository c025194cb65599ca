import { loadSettings } from '../config.js';
import { openStore } from '../store/index.js';
import { revHistoryOfStats } from '../summaries/historyOfStats.js';
import { sequentialRevisionNotes } from '../summaries/sequentialSideNotes.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { formatTable } from '../cli/output/table.js';
import { printJson } from '../cli/json/document.js';
import { HistoryJson, revisionJson } from '../cli/json/history.js';

/** `evalflow history [--case ID] [--candidate C]`: per workflow_rev in time order, how the bank (or one case) fared. */
export async function run(options: { case?: string; candidate?: string; config?: string; json?: boolean }, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    // Counted in SQL per revision and case: no run is loaded, whatever the store's size.
    const filter = { ...(options.case ? { caseId: options.case } : {}), ...(options.candidate ? { candidate: options.candidate } : {}) };
    const rows = revHistoryOfStats(await store.revisionCaseStats(filter));
    // A revision that takes in runs of a batch run until decided is compared by Fisher's test, and says so.
    const decidedBatches = await store.untilDecidedRevisionBatches(filter);
    const batchesOf = (rev: string) => decidedBatches.filter((b) => b.workflow_rev === rev).map((b) => b.batch_id);
    const notes: string[][] = [];
    for (const [i, r] of rows.entries()) notes.push(i > 0 && r.versusPrevious ? await sequentialRevisionNotes(store, rows[i - 1]!.workflowRev, r.workflowRev, batchesOf) : []);
    if (options.json) printJson(io, HistoryJson, { schema_version: 1, revisions: rows.map((r, i) => revisionJson(r, notes[i])) });
    if (rows.length === 0) {
      io.err(`no runs${options.case ? ` of case ${options.case}` : ''}${options.candidate ? ` with candidate ${options.candidate}` : ''} in the store yet`);
      return 0;
    }
    if (options.json) return 0;
    const table = rows.map((r) => [
      r.workflowRev.length > 20 && /^[0-9a-f]{40}/.test(r.workflowRev) ? `${r.workflowRev.slice(0, 7)}${r.workflowRev.endsWith('+dirty') ? '+dirty' : ''}` : r.workflowRev,
      r.since.slice(0, 19).replace('T', ' '),
      `${r.judged}/${r.runs}`,
      r.rate ? `${Math.round(r.rate.rate * 100)}% (${Math.round(r.rate.low * 100)}–${Math.round(r.rate.high * 100)})` : '–',
      r.meanOverall === null ? '–' : r.meanOverall.toFixed(2),
      !r.versusPrevious ? '' : `${r.versusPrevious.difference === null ? '–' : `${r.versusPrevious.difference >= 0 ? '+' : '−'}${Math.abs(Math.round(r.versusPrevious.difference * 100))} pts`}, ${r.versusPrevious.regressions} regressed, ${r.versusPrevious.improvements} improved`,
    ]);
    const header = ['workflow_rev', 'first run', 'judged/runs', 'pass rate (95%)', 'overall', 'vs previous rev'];
    for (const line of formatTable(header, table)) io.out(line);
    for (const note of notes.flat()) io.out(`note: ${note}`);
    return 0;
  } finally {
    await store.close();
  }
}
