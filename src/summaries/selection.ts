import { createHash } from 'node:crypto';

/** What a batch ran: its cases and its arms (none outside an experiment). */
export interface BatchSelection {
  batchId: string;
  createdAt: string;
  cases: ReadonlySet<string>;
  arms: ReadonlySet<string>;
}

/** Batches of the same selection ran the same cases with the same arms. */
export function sameSelection(a: BatchSelection, b: BatchSelection): boolean {
  return selectionKey(a) === selectionKey(b);
}

export function selectionKey(s: Pick<BatchSelection, 'cases' | 'arms'>): string {
  return `${[...s.cases].sort().join(',')}|${[...s.arms].sort().join(',')}`;
}

/**
 * The batch the headline summaries (latest.md, latest-stats.yaml, batch-insights.md) describe
 * once batch `asOf` has run. Walking the batches up to it oldest first, a batch takes the
 * headline when it ran every case of the batch that held it: the same selection again, or a
 * wider one. A follow-up over fewer or other cases does not: the headline would shrink to
 * those cases, and a comparison with the batch before would be over different cases.
 */
export function headlineBatch(selections: readonly BatchSelection[], asOf: string): BatchSelection | null {
  const until = selections.find((s) => s.batchId === asOf);
  let headline: BatchSelection | null = null;
  for (const s of ordered(selections)) {
    if (until && later(s, until)) break;
    if (!headline || [...headline.cases].every((caseId) => s.cases.has(caseId))) headline = s;
  }
  return headline;
}

/** The newest batch of `s`'s selection up to `s` itself: what that selection's own summaries describe. */
export function latestOfSelection(selections: readonly BatchSelection[], s: BatchSelection): BatchSelection {
  return ordered(selections).filter((x) => !later(x, s) && sameSelection(x, s)).at(-1) ?? s;
}

/**
 * A folder name for a selection's own summaries: its cases (the first and how many more when
 * they are many), its arms, and a short hash of the whole so two selections never share one.
 */
export function selectionFolder(s: Pick<BatchSelection, 'cases' | 'arms'>): string {
  const cases = [...s.cases].sort();
  const arms = [...s.arms].sort();
  const named = cases.length <= 3 ? cases.join('+') : `${cases[0]}+${cases.length - 1}-more`;
  const hash = createHash('sha256').update(selectionKey(s)).digest('hex').slice(0, 8);
  return `${named}${arms.length ? `@${arms.join('+')}` : ''}-${hash}`.replace(/[^A-Za-z0-9._+@-]/g, '_');
}

function ordered(selections: readonly BatchSelection[]): BatchSelection[] {
  return [...selections].sort((a, b) => (later(a, b) ? 1 : later(b, a) ? -1 : 0));
}

function later(a: BatchSelection, b: BatchSelection): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.batchId > b.batchId);
}
