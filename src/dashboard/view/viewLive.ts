/// <reference lib="dom" />

/** How often an open batch page asks how its batch stands while it runs. */
export const LIVE_POLL_MS = 2_000;

/** One poll's answer, as the page reads it (see batchLive.ts). */
interface Live {
  status: string;
  live: boolean;
  progress: { total: number; finished: number; running: number; pending: number; source: string };
  runs: { run_id: string; status: string; result: string | null; stage: string | null }[];
}

/**
 * Page code (its own source text runs in the browser): polls `/api/batches/ID/live` every
 * `pollMs` while the batch runs, writes the progress into `line`, and calls `changed` with the runs'
 * states whenever one of them moved, so the page redraws without a reload. A poll that fails
 * (the viewer restarting) is retried at the next tick; the batch's end stops the polling.
 */
export function followBatch(doc: Document, batchId: string, line: HTMLElement, pollMs: number, changed: (runs: Map<string, { status: string; result: string | null; stage: string | null }>) => void): void {
  let seen = '';
  const tick = async (): Promise<void> => {
    let live: Live | null = null;
    try {
      const response = await fetch(`/api/batches/${encodeURIComponent(batchId)}/live`);
      if (response.ok) live = (await response.json()) as Live;
    } catch {
      live = null;
    }
    if (live) {
      const p = live.progress;
      line.textContent = `${live.status}: ${p.finished} of ${p.total} finished, ${p.running} running, ${p.pending} not started${live.live ? (p.source === 'workflow' ? ' (from the batch workflow; updates live)' : " (the store's counts; updates live)") : ''}`;
      line.dataset.finished = String(p.finished);
      const signature = JSON.stringify(live.runs);
      if (signature !== seen) {
        seen = signature;
        changed(new Map(live.runs.map((r) => [r.run_id, r])));
      }
      if (!live.live) return;
    }
    setTimeout(() => void tick(), pollMs);
  };
  void tick();
}

/** Page code for the dashboard's "Running now" list: each batch's line follows it (`input` maps line ids to batch ids). */
export function followRunning(doc: Document, input: { pollMs: number; lines: Record<string, string> }): void {
  const follow = (globalThis as unknown as { followBatch: typeof followBatch }).followBatch;
  for (const [id, batchId] of Object.entries(input.lines)) follow(doc, batchId, doc.getElementById(id)!, input.pollMs, () => undefined);
}
