/**
 * A minimal-edit (Myers) diff of two sequences, reported as the changed blocks between
 * matching runs. Used for generating unified diffs and for the token-level metrics. Zed uses
 * `similar`/`imara_diff` (Myers/Histogram); both minimise edits, so counts agree and only
 * the placement of ambiguous alignments can differ.
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
export function diffSequences<T>(before: readonly T[], after: readonly T[]): DiffBlock[] {
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
