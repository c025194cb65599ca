import { describe, expect, it } from 'vitest';
import { asF32 } from '../../../src/editprediction/metrics/float32.js';

describe('asF32', () => {
  it('prints numbers as Rust prints an f32', () => {
    expect(asF32(1 / 3)).toBe(0.33333334);
    expect(asF32(83.33333333333334)).toBe(83.333336);
    expect(asF32(100)).toBe(100);
    expect(asF32(0)).toBe(0);
  });
});
