import { isRustWhitespace } from '../format/rustStr.js';
import { addCounts, bag, classify, NO_COUNTS, precision, recall } from './classification.js';
import type { Classification } from './classification.js';

/** Zed's current β (precision-weighted); its older metrics used 2.0, so scores are not comparable across the two. */
export const DEFAULT_DELTA_CHRF_BETA = 0.5;
const CHAR_ORDER = 6;
/** Characters kept on each side of a change so boundary n-grams are counted. */
const CONTEXT_CHARS = CHAR_ORDER - 1;

export interface DeltaChrF {
  /** 0–100. */
  score: number;
  beta: number;
  /** TP/FP/FN summed over the n-gram orders that were compared. */
  counts: Classification;
  /** Mean of the per-order precisions and recalls. */
  precision: number;
  recall: number;
}

/**
 * Delta chrF: compares the character n-gram *changes* original→expected with
 * original→actual, for n = 1..6, after collapsing whitespace runs. Deletions count as "¬g"
 * n-grams. Characters are Unicode scalar values, as Rust's `chars()`. The steps are listed
 * under *Delta chrF* in docs/edit-prediction.md.
 */
export function deltaChrF(original: string, expected: string, actual: string, beta = DEFAULT_DELTA_CHRF_BETA): DeltaChrF {
  return deltaChrFAgainst(prepareDeltaChrF(original, expected), actual, beta);
}

/** The side of delta chrF that depends only on the original and the expected text. */
export interface DeltaChrFReference {
  original: string;
  expected: string;
  originalChars: string[];
  /** Per n-gram order (index 0 = order 1): how many n-grams the expected edit changes, and the counts. */
  expectedDeltas: { size: number; counts: Map<string, number> }[];
}

/** Computed once per expected patch, then shared by every prediction scored against it. */
export function prepareDeltaChrF(original: string, expected: string): DeltaChrFReference {
  const originalChars = collapseWhitespace(original);
  const [originalForExpected, expectedRegion] = changedRegions(originalChars, collapseWhitespace(expected));
  const expectedDeltas = [];
  for (let order = 1; order <= CHAR_ORDER; order += 1) {
    const delta = ngramDelta(ngrams(originalForExpected, order), ngrams(expectedRegion, order));
    expectedDeltas.push({ size: delta.size, counts: deltaToCounts(delta) });
  }
  return { original, expected, originalChars, expectedDeltas };
}

export function deltaChrFAgainst(reference: DeltaChrFReference, actual: string, beta = DEFAULT_DELTA_CHRF_BETA): DeltaChrF {
  if (reference.original === reference.expected && reference.expected === actual) {
    return { score: 100, beta, counts: NO_COUNTS, precision: 1, recall: 1 };
  }
  const [originalForActual, actualRegion] = changedRegions(reference.originalChars, collapseWhitespace(actual));

  let totalPrecision = 0;
  let totalRecall = 0;
  let counts = NO_COUNTS;
  for (let order = 1; order <= CHAR_ORDER; order += 1) {
    const expectedDelta = reference.expectedDeltas[order - 1]!;
    const actualDelta = ngramDelta(ngrams(originalForActual, order), ngrams(actualRegion, order));
    if (expectedDelta.size === 0 && actualDelta.size === 0) {
      totalPrecision += 1;
      totalRecall += 1;
      continue;
    }
    const orderCounts = classify(expectedDelta.counts, deltaToCounts(actualDelta));
    totalPrecision += precision(orderCounts);
    totalRecall += recall(orderCounts);
    counts = addCounts(counts, orderCounts);
  }
  const p = totalPrecision / CHAR_ORDER;
  const r = totalRecall / CHAR_ORDER;
  const betaSquared = beta * beta;
  const score = p + r === 0 ? 0 : (((1 + betaSquared) * p * r) / (betaSquared * p + r)) * 100;
  return { score, beta, counts, precision: p, recall: r };
}

/**
 * Whitespace runs other than LF become one space, LF runs one LF; alternating runs stay
 * alternating (CRLF becomes " \n").
 */
export function collapseWhitespace(text: string): string[] {
  const out: string[] = [];
  let last: ' ' | '\n' | undefined;
  for (const char of text) {
    if (char === '\n') {
      if (last !== '\n') out.push('\n');
      last = '\n';
    } else if (isRustWhitespace(char)) {
      if (last !== ' ') out.push(' ');
      last = ' ';
    } else {
      out.push(char);
      last = undefined;
    }
  }
  return out;
}

/** Trim the common prefix and suffix, then widen both sides by the n-gram context. */
function changedRegions(original: string[], modified: string[]): [string[], string[]] {
  let prefix = 0;
  while (prefix < original.length && prefix < modified.length && original[prefix] === modified[prefix]) prefix += 1;
  const maxSuffix = Math.min(original.length - prefix, modified.length - prefix);
  let suffix = 0;
  while (suffix < maxSuffix && original[original.length - 1 - suffix] === modified[modified.length - 1 - suffix]) suffix += 1;
  const originalEnd = original.length - suffix;
  const modifiedEnd = modified.length - suffix;
  if (prefix >= originalEnd && prefix >= modifiedEnd) return [[], []];
  return [
    original.slice(Math.max(prefix - CONTEXT_CHARS, 0), Math.min(originalEnd + CONTEXT_CHARS, original.length)),
    modified.slice(Math.max(prefix - CONTEXT_CHARS, 0), Math.min(modifiedEnd + CONTEXT_CHARS, modified.length)),
  ];
}

function ngrams(chars: string[], order: number): Map<string, number> {
  const grams: string[] = [];
  for (let start = 0; start + order <= chars.length; start += 1) grams.push(chars.slice(start, start + order).join(''));
  return bag(grams);
}

/** after − before for every n-gram seen on either side (zero deltas are kept as keys). */
function ngramDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [gram, count] of before) delta.set(gram, (after.get(gram) ?? 0) - count);
  for (const [gram, count] of after) if (!before.has(gram)) delta.set(gram, count);
  return delta;
}

function deltaToCounts(delta: Map<string, number>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [gram, value] of delta) {
    if (value > 0) counts.set(gram, value);
    else if (value < 0) counts.set(`¬${gram}`, -value);
  }
  return counts;
}
