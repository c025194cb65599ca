import { describe, expect, it } from 'vitest';
import { baselineFirst } from '../../src/vocabulary/armOrder.js';

describe('baselineFirst', () => {
  it('puts the arm without the workflow first, by its change or its flag, and keeps the rest in order', () => {
    expect(baselineFirst([{ name: 'with', change: 'base' }, { name: 'b', change: 'model=m' }, { name: 'none', change: 'workflow=none' }]).map((a) => a.name)).toEqual(['none', 'with', 'b']);
    expect(baselineFirst([{ name: 'with', change: 'base' }, { name: 'off', change: 'x', noWorkflow: true }]).map((a) => a.name)).toEqual(['off', 'with']);
  });

  it('keeps the given order when no arm runs without the workflow, or when it is first already', () => {
    expect(baselineFirst([{ name: 'A', change: 'base' }, { name: 'B', change: 'candidate=x' }]).map((a) => a.name)).toEqual(['A', 'B']);
    expect(baselineFirst([{ name: 'none', change: 'workflow=none' }, { name: 'with', change: 'base' }]).map((a) => a.name)).toEqual(['none', 'with']);
  });
});
