import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Where a run and a batch's compare report open from a dashboard. */
export interface RunLinks {
  run(run: { run_id: string; run_dir: string }): string;
  compare(batchId: string): string | null;
}

/**
 * Links of the offline dashboard.html in `from`: a run opens as its run directory's review.md,
 * a batch's comparison as compare-<batch>.md of `summariesDir`, both relative to the page so
 * the folder can be moved or copied whole. A report that is not there gets no link.
 */
export function fileLinks(from: string, summariesDir = from): RunLinks {
  return {
    run: (run) => relativeHref(from, join(run.run_dir, 'review.md')),
    compare: (batchId) => {
      const file = join(summariesDir, `compare-${batchId}.md`);
      return existsSync(file) ? relativeHref(from, file) : null;
    },
  };
}

/** Links of the dashboard `evalflow view` serves: its run page, and its compare page when it knows the summaries folder. */
export function viewerLinks(summariesDir: string | null): RunLinks {
  return {
    run: (run) => `/runs/${encodeURIComponent(run.run_id)}`,
    compare: (batchId) => (summariesDir !== null && existsSync(join(summariesDir, `compare-${batchId}.md`)) ? `/batches/${encodeURIComponent(batchId)}/compare` : null),
  };
}

/** A relative URL path: each segment percent-encoded (a run id has '@'; a case id may have anything). */
function relativeHref(from: string, to: string): string {
  return relative(from, to).split(sep).map(encodeURIComponent).join('/');
}
