/** True/false positive/negative counts over a bag of items (n-grams, changed lines). */
export interface Classification {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export const NO_COUNTS: Classification = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };

/** Compare two multisets: TP = Σ min, FP = Σ excess of actual, FN = Σ excess of expected. */
export function classify(expected: Map<string, number>, actual: Map<string, number>): Classification {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  for (const [item, expectedCount] of expected) {
    const actualCount = actual.get(item) ?? 0;
    if (actualCount > expectedCount) falsePositives += actualCount - expectedCount;
    else falseNegatives += expectedCount - actualCount;
    truePositives += Math.min(expectedCount, actualCount);
  }
  for (const [item, actualCount] of actual) if (!expected.has(item)) falsePositives += actualCount;
  return { truePositives, falsePositives, falseNegatives };
}

export function addCounts(left: Classification, right: Classification): Classification {
  return {
    truePositives: left.truePositives + right.truePositives,
    falsePositives: left.falsePositives + right.falsePositives,
    falseNegatives: left.falseNegatives + right.falseNegatives,
  };
}

/** TP / (TP + FP), or 0 when nothing was predicted. */
export function precision(counts: Classification): number {
  const denominator = counts.truePositives + counts.falsePositives;
  return denominator === 0 ? 0 : counts.truePositives / denominator;
}

/** TP / (TP + FN), or 0 when nothing was expected. */
export function recall(counts: Classification): number {
  const denominator = counts.truePositives + counts.falseNegatives;
  return denominator === 0 ? 0 : counts.truePositives / denominator;
}

export function f1(counts: Classification): number {
  const p = precision(counts);
  const r = recall(counts);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** Count occurrences of each item. */
export function bag(items: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}
