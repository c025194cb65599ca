import type { Batch } from '../../store/index.js';
import { UNCOUNTED_STATUSES } from '../../vocabulary/runStates.js';

/** `3/10 finished: 2 pass, 1 fail, 1 infra_error` from a batch row's counts. */
export function formatCounts(counts: Batch['counts'], total: number | null): string {
  const finished = counts.finished ?? 0;
  const parts = [`${counts.passed ?? 0} pass`, `${counts.failed ?? 0} fail`];
  for (const status of UNCOUNTED_STATUSES) {
    if (counts[status]) parts.push(`${counts[status]} ${status}`);
  }
  return `${finished}${total !== null ? `/${total}` : ''} finished: ${parts.join(', ')}`;
}

/** The batch row's total, when the batch was planned. */
export function plannedTotal(batch: Batch | null): number | null {
  const total = batch?.spec.total;
  return typeof total === 'number' ? total : null;
}
