import type { Store } from '../store/index.js';
import type { ResolvedSide } from './selectSide.js';

/**
 * What a comparison labelled by Fisher's exact test must say of its sides that ran until
 * decided: their run counts were chosen by a sequential test while it looked (of the batch's own
 * two arms), so Fisher's test on those runs is approximate here, and only the batch's own A/B
 * comparison has labels that hold their error rate. A batch that stored no decisions says so,
 * rather than being read as if it had none to give. One note per such batch; none for others.
 * `sides`: each side by the name the output gives it (compare's A and B, the gate's --baseline).
 */
export async function sequentialSideNotes(store: Store, sides: Readonly<Record<string, ResolvedSide>>): Promise<string[]> {
  const byBatch = new Map<string, string[]>();
  for (const [name, side] of Object.entries(sides)) {
    if (side.filter.batchId) byBatch.set(side.filter.batchId, [...(byBatch.get(side.filter.batchId) ?? []), side.label === name ? name : `${name} (${side.label})`]);
  }
  return sequentialBatchNotes(store, byBatch, 'of');
}

/**
 * The same notes for sides that pool runs across batches (a workflow revision in `history` and
 * the dashboard): `byBatch` names, per batch that may have run until decided, the sides taking
 * in some of its runs. Batches that did not run until decided give no note.
 */
export async function sequentialBatchNotes(store: Store, byBatch: ReadonlyMap<string, readonly string[]>, relation: 'of' | 'runs of' = 'runs of'): Promise<string[]> {
  const notes: string[] = [];
  for (const [batchId, named] of byBatch) {
    const batch = await store.getBatch(batchId);
    const limits = batch?.spec.until_decided as { a?: unknown; b?: unknown } | undefined;
    if (!batch || !limits) continue;
    const verb = relation === 'of' ? (named.length === 1 ? 'is of' : 'are of') : named.length === 1 ? 'takes in runs of' : 'take in runs of';
    const which = `${named.length === 1 ? 'side' : 'sides'} ${named.join(' and ')} ${verb} batch ${batchId}, run until decided`;
    if ((await store.getBatchDecisions(batchId)).length > 0) {
      const own = `\`evalflow compare ${batchId}:${String(limits.a)} ${batchId}:${String(limits.b)}\``;
      notes.push(`${which}: its runs stopped when the sequential test of its own arms decided (${own} gives those labels); these labels are Fisher's exact test on its runs, which that stopping skews: read them as approximate`);
    } else {
      const why = batch.status === 'running' || batch.status === 'pending' ? 'it has not ended' : 'it ended before evalflow kept them';
      notes.push(`${which}, and stored no sequential decisions (${why}); these labels are Fisher's exact test on its runs, whose counts were chosen while looking: read them as approximate`);
    }
  }
  return notes;
}

/**
 * Notes for one revision against the one before (`history`, the dashboard): `batchesOf` gives,
 * per revision, the batches whose runs it pools (any; only those run until decided get a note).
 */
export async function sequentialRevisionNotes(store: Store, previous: string, rev: string, batchesOf: (rev: string) => readonly string[]): Promise<string[]> {
  const byBatch = new Map<string, string[]>();
  for (const [name, r] of [[`revision ${shortRev(previous)} (previous)`, previous], [`revision ${shortRev(rev)}`, rev]] as const) {
    for (const batchId of batchesOf(r)) byBatch.set(batchId, [...(byBatch.get(batchId) ?? []), name]);
  }
  return sequentialBatchNotes(store, byBatch);
}

/** A commit as people read it: its first 7 characters (and `+dirty`). */
function shortRev(rev: string): string {
  return /^[0-9a-f]{40}/.test(rev) ? `${rev.slice(0, 7)}${rev.endsWith('+dirty') ? '+dirty' : ''}` : rev;
}
