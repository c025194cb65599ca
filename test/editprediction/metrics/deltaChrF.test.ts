import { describe, expect, it } from 'vitest';
import { collapseWhitespace, deltaChrF } from '../../../src/editprediction/metrics/deltaChrF.js';

/** F-beta of mean precision P and mean recall R, as a percentage. */
const fBeta = (p: number, r: number, beta: number) => (100 * (1 + beta * beta) * p * r) / (beta * beta * p + r);

describe('deltaChrF', () => {
  it('is 100 when original, expected and actual are identical', () => {
    expect(deltaChrF('same text', 'same text', 'same text')).toEqual({
      score: 100,
      beta: 0.5,
      counts: { truePositives: 0, falsePositives: 0, falseNegatives: 0 },
      precision: 1,
      recall: 1,
    });
  });

  it('is 100 when the prediction equals the expected change', () => {
    expect(deltaChrF('fn main() {}', 'fn main() { run(); }', 'fn main() { run(); }').score).toBe(100);
  });

  it('scores a no-op prediction 0 when the change spans every n-gram order', () => {
    // Regions "efix old suff" / "efix new suff": changed n-grams per order 6, 8, 10, 12, 14, 16.
    const result = deltaChrF('prefix old suffix', 'prefix new suffix', 'prefix old suffix');
    expect(result.score).toBe(0);
    expect(result.counts).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: 66 });
  });

  it('gives a no-op on a tiny text credit for n-gram orders longer than the change region', () => {
    // "ab"→"ac": orders 1 and 2 have P = R = 0, orders 3–6 have no n-grams (P = R = 1).
    expect(deltaChrF('ab', 'ac', 'ab').score).toBeCloseTo(fBeta(4 / 6, 4 / 6, 0.5), 10);
  });

  it('scores a wrong replacement at the right place by the shared deletions', () => {
    // Order 1: {¬b, c} vs {¬b, d} → P = R = 1/2; order 2 likewise; orders 3–6 empty → 1.
    const result = deltaChrF('ab', 'ac', 'ad');
    expect(result.score).toBeCloseTo(fBeta(5 / 6, 5 / 6, 0.5), 10);
    expect(result.counts).toEqual({ truePositives: 2, falsePositives: 2, falseNegatives: 2 });
  });

  it('scores a partial rename (half of the inserted text) and honours β', () => {
    // x→xyz expected, x→xy predicted: P per order 1,1,0,1,1,1 and R .5,.5,0,1,1,1.
    const p = 5 / 6;
    const r = 4 / 6;
    expect(deltaChrF('x', 'xyz', 'xy').score).toBeCloseTo(fBeta(p, r, 0.5), 10);
    expect(deltaChrF('x', 'xyz', 'xy', 2).score).toBeCloseTo(fBeta(p, r, 2), 10);
    expect(deltaChrF('x', 'xyz', 'xy').counts).toEqual({ truePositives: 2, falsePositives: 0, falseNegatives: 3 });
  });

  it('ignores whitespace-only differences', () => {
    expect(deltaChrF('a b', 'a b', 'a   b').score).toBe(100);
    expect(deltaChrF('a b', 'a \t b', 'a b').score).toBe(100);
  });

  it('handles CRLF as " \\n" after collapsing', () => {
    expect(collapseWhitespace('x\r\ny')).toEqual(['x', ' ', '\n', 'y']);
    // Per-order P: 2/3, 2/5, 1/3, 1, 1, 1 and R: 1, 1, 1/2, 1/2, 1, 1 (worked by hand).
    const result = deltaChrF('x\r\ny', 'x\r\nz', 'x\nz');
    expect(result.score).toBeCloseTo(fBeta(11 / 15, 5 / 6, 0.5), 10);
    expect(result.counts).toEqual({ truePositives: 6, falsePositives: 6, falseNegatives: 2 });
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    const ascii = deltaChrF('ab', 'ac', 'ad').score;
    expect(deltaChrF('a😀', 'a😃', 'a😎').score).toBeCloseTo(ascii, 10);
    expect(deltaChrF('aé', 'aü', 'aö').score).toBeCloseTo(ascii, 10);
  });

  it('equals a brute-force computation over whole texts', () => {
    const cases: Array<[string, string, string]> = [
      ['hello world', 'hello there', 'hello world'],
      ['fn main() { println!("Hello"); }', 'fn main() { println!("Hello, World!"); }', 'fn main() { println!("Goodbye"); }'],
      ['abcdef', 'abcXYZdef', 'abcABCdef'],
      ['one two three four', 'one THREE four', 'one two FOUR'],
      ['', 'abc', ''],
      ['ORIGINAL start of text', 'NEW start of text', 'DIFFERENT start of text'],
      ['let é = 1;\n', 'let é = 2;\n', 'let ü = 2;\r\n'],
    ];
    for (const [original, expected, actual] of cases) {
      const fast = deltaChrF(original, expected, actual);
      const slow = bruteForce(original, expected, actual);
      expect(fast.score, JSON.stringify([original, expected, actual])).toBeCloseTo(slow.score, 10);
      expect(fast.counts).toEqual(slow.counts);
    }
  });
});

/** The definition without region trimming: n-gram deltas over the whole collapsed texts. */
function bruteForce(original: string, expected: string, actual: string) {
  const grams = (text: string, n: number) => {
    const chars = collapseWhitespace(text);
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= chars.length; i += 1) {
      const gram = chars.slice(i, i + n).join('');
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
    return counts;
  };
  const delta = (before: Map<string, number>, after: Map<string, number>) => {
    const keys = new Set([...before.keys(), ...after.keys()]);
    const out = new Map<string, number>();
    for (const key of keys) {
      const value = (after.get(key) ?? 0) - (before.get(key) ?? 0);
      if (value > 0) out.set(key, value);
      if (value < 0) out.set(`¬${key}`, -value);
    }
    return { out };
  };
  let p = 0;
  let r = 0;
  const counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (let n = 1; n <= 6; n += 1) {
    const e = delta(grams(original, n), grams(expected, n));
    const a = delta(grams(original, n), grams(actual, n));
    if (e.out.size === 0 && a.out.size === 0) {
      p += 1;
      r += 1;
      continue;
    }
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const key of new Set([...e.out.keys(), ...a.out.keys()])) {
      const x = e.out.get(key) ?? 0;
      const y = a.out.get(key) ?? 0;
      tp += Math.min(x, y);
      fp += Math.max(0, y - x);
      fn += Math.max(0, x - y);
    }
    counts.truePositives += tp;
    counts.falsePositives += fp;
    counts.falseNegatives += fn;
    p += tp + fp === 0 ? 0 : tp / (tp + fp);
    r += tp + fn === 0 ? 0 : tp / (tp + fn);
  }
  p /= 6;
  r /= 6;
  return { score: p + r === 0 ? 0 : fBeta(p, r, 0.5), counts };
}

describe('deltaChrF when texts differ only in line endings', () => {
  it('scores an LF line where a CRLF line was expected by the " \\n" the CR leaves after collapsing (hand-computed)', () => {
    // Collapsed: O = "a␠\n", E = "a␠\nb␠\n", A = "a␠\nb\n" (no suffix, so the regions are whole).
    // Per order n = 1…6, P: 1, 1/2, 1/2, 1/2, 0, 0 and R: 2/3, 1/3, 1/3, 1/3, 0, 0;
    // TP 2+1+1+1 = 5, FP 0+1+1+1+1 = 4, FN 1+2+2+2+2+1 = 10. P = 5/12, R = 5/18.
    const result = deltaChrF('a\r\n', 'a\r\nb\r\n', 'a\r\nb\n');
    expect(result.precision).toBeCloseTo(5 / 12, 12);
    expect(result.recall).toBeCloseTo(5 / 18, 12);
    expect(result.counts).toEqual({ truePositives: 5, falsePositives: 4, falseNegatives: 10 });
    expect(result.score).toBeCloseTo(fBeta(5 / 12, 5 / 18, 0.5), 10);
    expect(result.score).toBeCloseTo(2500 / 66, 10);
    // The LF twin: the prediction is exactly the expected change.
    expect(deltaChrF('a\n', 'a\nb\n', 'a\nb\n').score).toBe(100);
  });
});
