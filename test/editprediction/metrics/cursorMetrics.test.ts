import { describe, expect, it } from 'vitest';
import { cursorMetrics } from '../../../src/editprediction/metrics/cursorMetrics.js';

describe('cursorMetrics', () => {
  it('measures distance when both cursors are known', () => {
    expect(cursorMetrics(24, 24)).toEqual({ distance: 0, exactMatch: true });
    expect(cursorMetrics(24, 20)).toEqual({ distance: 4, exactMatch: false });
  });

  it('is a miss without distance when only one is known, and not evaluated when neither is', () => {
    expect(cursorMetrics(24, undefined)).toEqual({ distance: undefined, exactMatch: false });
    expect(cursorMetrics(undefined, 3)).toEqual({ distance: undefined, exactMatch: false });
    expect(cursorMetrics(undefined, undefined)).toEqual({ distance: undefined, exactMatch: undefined });
  });
});
