import { utf8Length } from '../format/rustStr.js';
import { isIdentifierToken, tokenize } from './tokenize.js';

/** Beyond this difference in how much the two edits change the length, both rates are 0. */
const MAX_DIRTY_LENGTH_DELTA = 512;

export interface KeptRate {
  candidateNewChars: number;
  referenceNewChars: number;
  candidateDeletedChars: number;
  referenceDeletedChars: number;
  keptChars: number;
  correctlyDeletedChars: number;
  discardedChars: number;
  /** Share of the candidate's edit (new + deleted bytes) that the reference also makes. */
  keptRate: number;
  /** Share of the reference's edit that the candidate makes. */
  recallRate: number;
}

/**
 * Kept and recall rates by token LCS: units are tokens with consecutive
 * identifier pieces merged; "new" units are those not on an LCS with the base; kept = bytes
 * of candidate-new units on an LCS with reference-new units; deleted = base units off the
 * LCS with the candidate (resp. reference). Sizes are UTF-8 bytes.
 */
export function computeKeptRate(base: string, candidate: string, reference: string): KeptRate {
  return keptRateAgainst(prepareKeptRate(base, reference), candidate);
}

/** The side of the kept rate that depends only on the base and the reference; its units are computed on first need. */
export interface KeptRateReference {
  base: string;
  reference: string;
  baseBytes: number;
  referenceDelta: number;
  units(): { base: string[]; referenceNew: string[]; baseOnReference: boolean[]; referenceNewChars: number; referenceDeletedChars: number };
}

/** Computed once per expected patch, then shared by every prediction scored against it. */
export function prepareKeptRate(base: string, reference: string): KeptRateReference {
  const baseBytes = utf8Length(base);
  let units: ReturnType<KeptRateReference['units']> | undefined;
  return {
    base,
    reference,
    baseBytes,
    referenceDelta: Math.abs(utf8Length(reference) - baseBytes),
    units() {
      if (units) return units;
      const baseUnits = comparisonUnits(base);
      const referenceUnits = comparisonUnits(reference);
      const [referenceOnBase, baseOnReference] = lcsKeepMasks(referenceUnits, baseUnits);
      const referenceNew = referenceUnits.filter((_, index) => !referenceOnBase[index]);
      units = {
        base: baseUnits,
        referenceNew,
        baseOnReference,
        referenceNewChars: byteSum(referenceNew),
        referenceDeletedChars: byteSum(baseUnits.filter((_, index) => !baseOnReference[index])),
      };
      return units;
    },
  };
}

export function keptRateAgainst(prepared: KeptRateReference, candidate: string): KeptRate {
  if (prepared.base === candidate && candidate === prepared.reference) {
    return { candidateNewChars: 0, referenceNewChars: 0, candidateDeletedChars: 0, referenceDeletedChars: 0, keptChars: 0, correctlyDeletedChars: 0, discardedChars: 0, keptRate: 1, recallRate: 1 };
  }
  const candidateDelta = Math.abs(utf8Length(candidate) - prepared.baseBytes);
  const referenceDelta = prepared.referenceDelta;
  if (Math.abs(candidateDelta - referenceDelta) > MAX_DIRTY_LENGTH_DELTA) {
    return { candidateNewChars: candidateDelta, referenceNewChars: referenceDelta, candidateDeletedChars: 0, referenceDeletedChars: 0, keptChars: 0, correctlyDeletedChars: 0, discardedChars: candidateDelta, keptRate: 0, recallRate: 0 };
  }

  const { base: baseUnits, referenceNew, baseOnReference, referenceNewChars, referenceDeletedChars } = prepared.units();
  const candidateUnits = comparisonUnits(candidate);
  const [candidateOnBase, baseOnCandidate] = lcsKeepMasks(candidateUnits, baseUnits);
  const candidateNew = candidateUnits.filter((_, index) => !candidateOnBase[index]);
  const candidateNewChars = byteSum(candidateNew);
  const [keptMask] = lcsKeepMasks(candidateNew, referenceNew);
  const keptChars = byteSum(candidateNew.filter((_, index) => keptMask[index]));
  const candidateDeletedChars = byteSum(baseUnits.filter((_, index) => !baseOnCandidate[index]));
  const correctlyDeletedChars = byteSum(baseUnits.filter((_, index) => !baseOnCandidate[index] && !baseOnReference[index]));

  const matched = keptChars + correctlyDeletedChars;
  const candidateEdit = candidateNewChars + candidateDeletedChars;
  const referenceEdit = referenceNewChars + referenceDeletedChars;
  return {
    candidateNewChars,
    referenceNewChars,
    candidateDeletedChars,
    referenceDeletedChars,
    keptChars,
    correctlyDeletedChars,
    discardedChars: candidateNewChars - keptChars,
    keptRate: candidateEdit === 0 ? (referenceEdit === 0 ? 1 : 0) : matched / candidateEdit,
    recallRate: referenceEdit === 0 ? (candidateEdit === 0 ? 1 : 0) : matched / referenceEdit,
  };
}

/** Tokens with runs of identifier pieces merged back into one unit. */
function comparisonUnits(text: string): string[] {
  const tokens = tokenize(text);
  const units: string[] = [];
  for (let index = 0; index < tokens.length; ) {
    if (isIdentifierToken(tokens[index] as string)) {
      let unit = '';
      while (index < tokens.length && isIdentifierToken(tokens[index] as string)) unit += tokens[index++] as string;
      units.push(unit);
    } else {
      units.push(tokens[index++] as string);
    }
  }
  return units;
}

function byteSum(units: string[]): number {
  return units.reduce((sum, unit) => sum + utf8Length(unit), 0);
}

/**
 * Which elements of `a` and of `b` lie on a longest common subsequence. Common prefix and
 * suffix are matched directly; the middle uses one DP table, with Zed's one-sided
 * tie-breaking (for `a`: move up on ties; for `b`: move left on ties).
 */
export function lcsKeepMasks(a: string[], b: string[]): [boolean[], boolean[]] {
  const keepA = a.map(() => false);
  const keepB = b.map(() => false);
  if (a.length === 0 || b.length === 0) return [keepA, keepB];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  const maxSuffix = Math.min(a.length - prefix, b.length - prefix);
  let suffix = 0;
  while (suffix < maxSuffix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  for (let index = 0; index < prefix; index += 1) keepA[index] = keepB[index] = true;
  for (let offset = 0; offset < suffix; offset += 1) {
    keepA[a.length - suffix + offset] = true;
    keepB[b.length - suffix + offset] = true;
  }
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length === 0 || midB.length === 0) return [keepA, keepB];

  const columns = midB.length + 1;
  const table = new Uint32Array((midA.length + 1) * columns);
  for (let i = 1; i <= midA.length; i += 1) {
    for (let j = 1; j <= midB.length; j += 1) {
      table[i * columns + j] =
        midA[i - 1] === midB[j - 1]
          ? (table[(i - 1) * columns + j - 1] as number) + 1
          : Math.max(table[(i - 1) * columns + j] as number, table[i * columns + j - 1] as number);
    }
  }
  for (let i = midA.length, j = midB.length; i > 0 && j > 0; ) {
    if (midA[i - 1] === midB[j - 1]) {
      keepA[prefix + i - 1] = true;
      i -= 1;
      j -= 1;
    } else if ((table[(i - 1) * columns + j] as number) >= (table[i * columns + j - 1] as number)) i -= 1;
    else j -= 1;
  }
  for (let i = midA.length, j = midB.length; i > 0 && j > 0; ) {
    if (midA[i - 1] === midB[j - 1]) {
      keepB[prefix + j - 1] = true;
      i -= 1;
      j -= 1;
    } else if ((table[i * columns + j - 1] as number) >= (table[(i - 1) * columns + j] as number)) j -= 1;
    else i -= 1;
  }
  return [keepA, keepB];
}
