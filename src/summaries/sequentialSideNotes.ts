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
  const notes: string[] = [];
  for (const [batchId, named] of byBatch) {
    const batch = await store.getBatch(batchId);
    const limits = batch?.spec.until_decided as { a?: unknown; b?: unknown } | undefined;
    if (!batch || !limits) continue;
    const which = `${named.length === 1 ? 'side' : 'sides'} ${named.join(' and ')} ${named.length === 1 ? 'is' : 'are'} of batch ${batchId}, run until decided`;
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
