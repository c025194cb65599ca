export interface CursorMetrics {
  /** |expected − actual| in bytes, when both cursors are known. */
  distance: number | undefined;
  /** Evaluated when at least one cursor is known; false when only one is. */
  exactMatch: boolean | undefined;
}

/**
 * Cursor placement: both present → distance and exact match; neither → not
 * evaluated; exactly one → a miss without distance.
 */
export function cursorMetrics(expected: number | undefined, actual: number | undefined): CursorMetrics {
  if (expected !== undefined && actual !== undefined) {
    const distance = Math.abs(expected - actual);
    return { distance, exactMatch: distance === 0 };
  }
  if (expected === undefined && actual === undefined) return { distance: undefined, exactMatch: undefined };
  return { distance: undefined, exactMatch: false };
}
