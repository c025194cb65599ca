/**
 * Sequence diffs reported as the changed blocks between matching runs. Two algorithms, as
 * Zed uses both: Myers (minimal edits; `similar`, used for diffs and token counts) and
 * histogram (`imara_diff`, used by the reversal metric, which anchors on rare elements and
 * so aligns ambiguous changes differently).
 */
export interface DiffBlock {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Beyond this many edits the middle is reported as one replacement, to bound memory. */
const MAX_EDIT_DISTANCE = 4000;

/** Changed blocks turning `before` into `after`, in order; empty when they are equal. */
export function diffSequences<T>(before: readonly T[], after: readonly T[], algorithm: 'myers' | 'histogram' = 'myers'): DiffBlock[] {
  return algorithm === 'histogram' ? histogramDiff(before, after) : myersDiff(before, after);
}

function myersDiff<T>(before: readonly T[], after: readonly T[]): DiffBlock[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const a = before.slice(prefix, before.length - suffix);
  const b = after.slice(prefix, after.length - suffix);
  if (a.length === 0 && b.length === 0) return [];
  if (a.length === 0 || b.length === 0) {
    return [{ oldStart: prefix, oldEnd: prefix + a.length, newStart: prefix, newEnd: prefix + b.length }];
  }
  const matches = myersMatches(a, b);
  const blocks: DiffBlock[] = [];
  let x = 0;
  let y = 0;
  for (const [mx, my] of [...matches, [a.length, b.length] as [number, number]]) {
    if (mx > x || my > y) blocks.push({ oldStart: prefix + x, oldEnd: prefix + mx, newStart: prefix + y, newEnd: prefix + my });
    x = mx + 1;
    y = my + 1;
  }
  return blocks;
}

/** Pairs (i, j) with a[i] === b[j] on a shortest edit script, ascending. */
function myersMatches<T>(a: readonly T[], b: readonly T[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d += 1) {
    trace.push(v.slice());
    const next = v;
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (next[offset + k - 1] ?? 0) < (next[offset + k + 1] ?? 0));
      let x = down ? (next[offset + k + 1] ?? 0) : (next[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) return [];

  const matches: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d -= 1) {
    const state = trace[d] as Int32Array;
    const k = x - y;
    if (d === 0) {
      while (x > 0 && y > 0) matches.push([--x, --y]);
      break;
    }
    const down = k === -d || (k !== d && (state[offset + k - 1] ?? 0) < (state[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = state[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    // The edit step lands on (startX, startY); the snake from there to (x, y) is all matches.
    const startX = down ? prevX : prevX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) matches.push([--x, --y]);
    x = prevX;
    y = prevY;
  }
  return matches.reverse();
}

/** Longest run of the histogram search: a run anchored on elements this common is rejected. */
const MAX_CHAIN_LENGTH = 63;

/**
 * imara_diff's histogram diff: strip the common prefix and suffix, then repeatedly find the
 * common run anchored on the least frequent element of `before`, diff what lies before it
 * recursively and continue after it. Falls back to Myers when every anchor is too common.
 */
function histogramDiff<T>(before: readonly T[], after: readonly T[]): DiffBlock[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) {
    suffix += 1;
  }
  const blocks: DiffBlock[] = [];
  histogramRun(before, prefix, before.length - suffix, after, prefix, after.length - suffix, blocks);
  return blocks;
}

function histogramRun<T>(before: readonly T[], beforeStart: number, beforeEnd: number, after: readonly T[], afterStart: number, afterEnd: number, blocks: DiffBlock[]): void {
  let b0 = beforeStart;
  let a0 = afterStart;
  for (;;) {
    if (b0 === beforeEnd) {
      if (a0 < afterEnd) blocks.push({ oldStart: b0, oldEnd: b0, newStart: a0, newEnd: afterEnd });
      return;
    }
    if (a0 === afterEnd) {
      blocks.push({ oldStart: b0, oldEnd: beforeEnd, newStart: a0, newEnd: a0 });
      return;
    }
    const lcs = findAnchoredRun(before.slice(b0, beforeEnd), after.slice(a0, afterEnd));
    if (lcs === undefined) {
      for (const block of myersDiff(before.slice(b0, beforeEnd), after.slice(a0, afterEnd))) {
        blocks.push({ oldStart: b0 + block.oldStart, oldEnd: b0 + block.oldEnd, newStart: a0 + block.newStart, newEnd: a0 + block.newEnd });
      }
      return;
    }
    if (lcs.length === 0) {
      blocks.push({ oldStart: b0, oldEnd: beforeEnd, newStart: a0, newEnd: afterEnd });
      return;
    }
    histogramRun(before, b0, b0 + lcs.beforeStart, after, a0, a0 + lcs.afterStart, blocks);
    b0 += lcs.beforeStart + lcs.length;
    a0 += lcs.afterStart + lcs.length;
  }
}

/** The common run found by imara_diff's `find_lcs` (its quirks included), or undefined to fall back. */
function findAnchoredRun<T>(before: readonly T[], after: readonly T[]): { beforeStart: number; afterStart: number; length: number } | undefined {
  const occurrences = new Map<T, number[]>();
  before.forEach((element, index) => {
    const positions = occurrences.get(element);
    if (positions) positions.push(index);
    else occurrences.set(element, [index]);
  });
  const count = (element: T) => occurrences.get(element)?.length ?? 0;
  let best = { beforeStart: 0, afterStart: 0, length: 0 };
  let minOccurrences = MAX_CHAIN_LENGTH + 1;
  let foundCommon = false;

  for (let position = 0; position < after.length; ) {
    const element = after[position] as T;
    const total = count(element);
    if (total === 0) {
      position += 1;
      continue;
    }
    foundCommon = true;
    if (total > minOccurrences) {
      position += 1;
      continue;
    }
    let nextPosition = position + 1;
    const positions = occurrences.get(element) as number[];
    for (let k = 0; k < positions.length; ) {
      const beforeIndex = positions[k] as number;
      let runOccurrences = total;
      let start1 = beforeIndex;
      let start2 = position;
      while (start1 > 0 && start2 > 0 && before[start1 - 1] === after[start2 - 1]) {
        start1 -= 1;
        start2 -= 1;
        runOccurrences = Math.min(runOccurrences, count(before[start1] as T));
      }
      let end1 = beforeIndex + 1;
      let end2 = position + 1;
      while (end1 < before.length && end2 < after.length && before[end1] === after[end2]) {
        runOccurrences = Math.min(runOccurrences, count(before[end1] as T));
        end1 += 1;
        end2 += 1;
      }
      if (nextPosition < end2) nextPosition = end2;
      const length = end2 - start2;
      if (best.length < length || minOccurrences > runOccurrences) {
        minOccurrences = runOccurrences;
        best = { beforeStart: start1, afterStart: start2, length };
      }
      // imara_diff skips to the next occurrence past end2 (a before index compared with an
      // after index); kept as is so alignments match Zed's.
      k += 1;
      while (k < positions.length && (positions[k] as number) <= end2) k += 1;
    }
    position = nextPosition;
  }
  return !foundCommon || minOccurrences <= MAX_CHAIN_LENGTH ? best : undefined;
}
