import { afterEach, describe, expect, it } from 'vitest';
import { makeBatchId, makeRunId, parseRunId, runStamp } from '../../src/run/runId.js';

const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('runStamp', () => {
  it('formats yyyymmddTHHMMSS with zero padding', () => {
    expect(runStamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5)))).toBe('20250102T030405');
    expect(runStamp(new Date(Date.UTC(2024, 11, 31, 23, 59, 59)))).toBe('20241231T235959');
  });

  it('uses UTC whatever the local time zone is', () => {
    // Node re-reads TZ on assignment; New York is behind UTC, so a local stamp would show Dec 31.
    process.env.TZ = 'America/New_York';
    const date = new Date('2025-12-31T23:30:00-05:00');
    expect(date.getHours()).toBe(23);
    expect(runStamp(date)).toBe('20260101T043000');
  });
});

describe('makeRunId and makeBatchId', () => {
  it('builds run ids with and without the attempt index', () => {
    expect(makeRunId('add-truncate', 'builtin', '20250102T030405')).toBe('run-add-truncate-builtin@20250102T030405');
    expect(makeRunId('add-truncate', 'builtin', '20250102T030405', 2)).toBe('run-add-truncate-builtin@20250102T030405-2');
    expect(makeRunId('c', 'x', '20250102T030405', 0)).toBe('run-c-x@20250102T030405-0');
    expect(makeRunId('add-truncate', 'builtin', '20250102T030405', 3, 'B')).toBe('run-add-truncate-builtin@20250102T030405+B-3');
    expect(parseRunId('run-add-truncate-builtin@20250102T030405+no_skill.v2-3')).toEqual({ stamp: '20250102T030405', arm: 'no_skill.v2', k: 3 });
    expect(parseRunId('run-add-truncate-builtin@20250102T030405+A')).toEqual({ stamp: '20250102T030405', arm: 'A' });
  });

  it('builds batch ids', () => {
    expect(makeBatchId('20250102T030405', 'a1b2')).toBe('batch-20250102T030405-a1b2');
  });
});

describe('parseRunId', () => {
  const stamp = '20250102T030405';

  it.each([
    ['fix-bug', 'builtin', undefined],
    ['fix-bug', 'claude-sonnet-4.5', undefined],
    ['fix-bug', 'claude-sonnet-4.5', 3],
    ['a', 'b', 0],
    ['case.v2_x', 'my-cli-2', 12],
  ])('round-trips case %s, candidate %s, k %s', (caseId, candidate, k) => {
    const parsed = parseRunId(makeRunId(caseId, candidate, stamp, k));
    expect(parsed).toEqual(k === undefined ? { stamp } : { stamp, k });
  });

  it('returns null for anything that is not a run id', () => {
    expect(parseRunId('batch-20250102T030405-ab')).toBeNull();
    expect(parseRunId('run-case-cand@2025-01-02')).toBeNull();
    expect(parseRunId('run-onlyone@20250102T030405')).toBeNull();
    expect(parseRunId('run-case-cand@20250102T030405-x')).toBeNull();
    expect(parseRunId('xrun-case-cand@20250102T030405')).toBeNull();
  });
});
