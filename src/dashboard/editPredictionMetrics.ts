import type { Store } from '../store/index.js';
import type { EpBatchMetrics } from './schema.js';

/**
 * Per edit-prediction batch (and provider): mean delta chrF, exact-lines micro F1 and the
 * cursor exact-match rate over its scored predictions. Scores are read a batch at a time.
 */
export async function editPredictionMetrics(store: Store, batches: readonly { id: string; kind: string }[]): Promise<EpBatchMetrics[]> {
  const metrics: EpBatchMetrics[] = [];
  for (const [index, batch] of batches.entries()) {
    if (batch.kind !== 'edit_prediction') continue;
    const byProvider = new Map<string, { n: number; chrF: number; chrFN: number; tp: number; fp: number; fn: number; cursorN: number; cursorHits: number }>();
    for (const { provider, score } of await store.listEpScores(batch.id)) {
      let sums = byProvider.get(provider);
      if (!sums) byProvider.set(provider, (sums = { n: 0, chrF: 0, chrFN: 0, tp: 0, fp: 0, fn: 0, cursorN: 0, cursorHits: 0 }));
      sums.n += 1;
      if (typeof score.delta_chr_f === 'number') {
        sums.chrF += score.delta_chr_f;
        sums.chrFN += 1;
      }
      sums.tp += numberOr0(score.exact_lines_tp);
      sums.fp += numberOr0(score.exact_lines_fp);
      sums.fn += numberOr0(score.exact_lines_fn);
      // undefined: the example has no expected cursor, so there is nothing to match.
      if (typeof score.cursor_exact_match === 'boolean') {
        sums.cursorN += 1;
        if (score.cursor_exact_match) sums.cursorHits += 1;
      }
    }
    for (const [provider, s] of [...byProvider].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const f1Denominator = 2 * s.tp + s.fp + s.fn;
      metrics.push({
        batch: index,
        provider,
        predictions: s.n,
        deltaChrF: s.chrFN === 0 ? null : s.chrF / s.chrFN,
        exactLinesF1: f1Denominator === 0 ? null : (2 * s.tp) / f1Denominator,
        cursorExactMatch: s.cursorN === 0 ? null : s.cursorHits / s.cursorN,
      });
    }
  }
  return metrics;
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}
