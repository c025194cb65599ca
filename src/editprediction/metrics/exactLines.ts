import { rustLines } from '../format/rustStr.js';
import { bag, classify } from './classification.js';
import type { Classification } from './classification.js';

/**
 * Exact lines: the bags of changed lines (`+…`/`-…`, prefix and whitespace
 * included, headers excluded) of the two patches, compared as multisets.
 */
export function exactLinesMatch(expectedPatch: string, actualPatch: string): Classification {
  return classify(changedLines(expectedPatch), changedLines(actualPatch));
}

/** The changed lines of a patch, counted. */
export function changedLines(patch: string): Map<string, number> {
  return bag(
    rustLines(patch).filter(
      (line) =>
        (line.startsWith('+') || line.startsWith('-')) &&
        !line.startsWith('---') &&
        !line.startsWith('+++'),
    ),
  );
}
