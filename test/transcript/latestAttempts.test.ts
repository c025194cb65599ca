import { describe, expect, it } from 'vitest';
import type { TranscriptEvent, TranscriptRole } from '../../src/transcript/schema.js';
import { latestAttempts } from '../../src/transcript/latestAttempts.js';

let seq = 0;
function anEvent(turn: number, attempt: number, role: TranscriptRole, content = `${role} t${turn} a${attempt}`): TranscriptEvent {
  return { run_id: 'run-x-y@20250101T000000', turn, seq: seq++, attempt, ts: '2025-01-01T00:00:00Z', role, content };
}

describe('latestAttempts', () => {
  it('keeps only the candidate events of the highest attempt of each turn', () => {
    const events = [
      anEvent(1, 1, 'examiner'),
      anEvent(1, 1, 'candidate.tool_call.started'),
      anEvent(1, 1, 'system', 'attempt 1 failed: timeout'),
      anEvent(1, 2, 'candidate.thinking'),
      anEvent(1, 2, 'candidate'),
      anEvent(2, 1, 'examiner'),
      anEvent(2, 1, 'candidate'),
      anEvent(3, 1, 'examiner'),
      anEvent(3, 1, 'candidate.tool_call.completed'),
      anEvent(3, 2, 'candidate.assistant_partial'),
      anEvent(3, 3, 'candidate'),
    ];
    expect(latestAttempts(events).map((e) => e.content)).toEqual([
      'examiner t1 a1',
      'attempt 1 failed: timeout',
      'candidate.thinking t1 a2',
      'candidate t1 a2',
      'examiner t2 a1',
      'candidate t2 a1',
      'examiner t3 a1',
      'candidate t3 a3',
    ]);
  });

  it('keeps examiner and system events of every attempt', () => {
    const events = [anEvent(1, 1, 'examiner'), anEvent(1, 2, 'examiner'), anEvent(1, 1, 'system'), anEvent(1, 3, 'system'), anEvent(1, 2, 'candidate')];
    expect(latestAttempts(events)).toEqual([events[0], events[1], events[2], events[3], events[4]]);
  });

  it('does not reorder events, even when a higher attempt was stored first', () => {
    const events = [anEvent(1, 2, 'candidate', 'late'), anEvent(1, 1, 'candidate', 'early'), anEvent(1, 2, 'candidate', 'late again')];
    expect(latestAttempts(events).map((e) => e.content)).toEqual(['late', 'late again']);
  });

  it('puts the examiner first within a turn, as the store\'s (turn, attempt, seq) order may not', () => {
    // The examiner's turn 2 was written by its second attempt; the candidate answered in its first.
    const events = [anEvent(2, 1, 'candidate', 'reply'), anEvent(2, 1, 'system', 'usage'), anEvent(2, 2, 'examiner', 'question'), anEvent(3, 1, 'examiner', 'next')];
    expect(latestAttempts(events).map((e) => e.content)).toEqual(['question', 'reply', 'usage', 'next']);
  });

  it('keeps only the latest generation: a run restarted on another host started over', () => {
    const events = [anEvent(1, 1, 'examiner', 'old q'), anEvent(1, 1, 'candidate', 'old a'), anEvent(2, 1, 'examiner', 'old q2'), anEvent(1, 1001, 'examiner', 'q'), anEvent(1, 1002, 'candidate', 'a')];
    expect(latestAttempts(events).map((e) => e.content)).toEqual(['q', 'a']);
  });

  it('returns nothing for no events', () => {
    expect(latestAttempts([])).toEqual([]);
  });
});
