import { parseMetricsPatch } from './metricsPatch.js';

/**
 * Zed's proxy for a prediction that rewrote the wrong editable region: its first hunk starts
 * with three or more deleted lines ("WrgER" in the report).
 */
export function isEditableRegionCorrect(patch: string): boolean {
  const first = parseMetricsPatch(patch)[0];
  if (!first) return true;
  let deletionsAtStart = 0;
  for (const line of first.lines) {
    if (line.kind !== 'deletion') break;
    deletionsAtStart += 1;
  }
  return deletionsAtStart < 3;
}
