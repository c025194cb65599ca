/**
 * A comparison side's `batch:arm` (or `ARM` alone when the batch is given apart): the batch and
 * the arm, or the name whole when it names no arm. Spelled here, below run/ and summaries/,
 * because `--arm` names a batch's arms and compare and `--baseline` read them back.
 */
export function parseArmRef(name: string, inBatch?: string): { batch: string; arm?: string } {
  if (inBatch) return { batch: inBatch, arm: name };
  const colon = name.lastIndexOf(':');
  return colon === -1 ? { batch: name } : { batch: name.slice(0, colon), arm: name.slice(colon + 1) };
}
