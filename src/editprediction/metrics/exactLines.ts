import { splitLines } from '../format/lineEndings.js';
import { bag, classify } from './classification.js';
import type { Classification } from './classification.js';

/**
 * Exact lines: the bags of changed lines (`+…`/`-…`, prefix and whitespace included, the CR of
 * a CRLF line too, headers excluded) of the two patches, compared as multisets.
 */
export function exactLinesMatch(expectedPatch: string, actualPatch: string): Classification {
  return classify(changedLines(expectedPatch), changedLines(actualPatch));
}

/** The changed lines of a patch, counted. */
export function changedLines(patch: string): Map<string, number> {
  return bag(
    splitLines(patch).filter(
      (line) =>
        (line.startsWith('+') || line.startsWith('-')) &&
        !line.startsWith('---') &&
        !line.startsWith('+++'),
    ),
  );
}
