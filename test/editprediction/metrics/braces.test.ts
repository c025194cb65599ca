import { describe, expect, it } from 'vitest';
import { bracesDisbalance } from '../../../src/editprediction/metrics/braces.js';

describe('bracesDisbalance', () => {
  it('sums the imbalance of each bracket kind', () => {
    expect(bracesDisbalance('let x = { 1 + 2 };')).toBe(0);
    expect(bracesDisbalance('let x = { 1 + 2')).toBe(1);
    expect(bracesDisbalance('let x = { 1 + 2 )')).toBe(2);
    expect(bracesDisbalance('[[(')).toBe(3);
  });
});
