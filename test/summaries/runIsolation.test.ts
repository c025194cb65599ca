import { describe, expect, it } from 'vitest';
import { runIsolation, uncontainedLine } from '../../src/summaries/runIsolation.js';

describe('runIsolation', () => {
  it('is sandbox only where the row records sandbox; a run of an earlier version ran uncontained', () => {
    expect(runIsolation({ spec: { candidate: { isolation: 'sandbox' } }, config: {} })).toBe('sandbox');
    expect(runIsolation({ spec: null, config: { candidate: { isolation: 'sandbox' } } })).toBe('sandbox');
    expect(runIsolation({ spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'sandbox' } } })).toBe('none');
    expect(runIsolation({ spec: { candidate: { name: 'old' } }, config: { candidate: { name: 'old' } } })).toBe('none');
    expect(runIsolation({ spec: null, config: {} })).toBe('none');
    expect(runIsolation({ spec: { candidate: { isolation: 'chroot' } }, config: {} })).toBe('none');
  });

  it('says nothing when every run was contained', () => {
    expect(uncontainedLine(0, 10)).toBeNull();
    expect(uncontainedLine(3, 10)).toBe('uncontained: 3 of 10 runs (isolation: none)');
    expect(uncontainedLine(1, 1)).toBe('uncontained: 1 of 1 run (isolation: none)');
  });
});
