/**
 * A number as Rust prints an `f32`: rounded to single precision, then the shortest decimal
 * that reads back to the same `f32` (so 1/3 is 0.33333334, not 0.3333333432674408). Zed
 * stores delta chrF and the reversal ratio as `f32`.
 */
export function asF32(value: number): number {
  const single = Math.fround(value);
  if (!Number.isFinite(single) || single === 0) return single;
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return candidate;
  }
  return single;
}
