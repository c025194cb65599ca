import { describe, expect, it } from 'vitest';
import { runTokens } from '../../src/run/runTokens.js';
import type { RunStep } from '../../src/store/index.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';

const step = (role: RunStep['role'], turn: number, usage: RunStep['usage'], state: RunStep['state'] = 'finished'): RunStep => ({
  run_id: 'r',
  role,
  turn,
  attempt: 1,
  state,
  usage,
  output: {},
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
});
const examinerEvent = (turn: number, usage?: TranscriptEvent['usage']): TranscriptEvent => ({
  run_id: 'r',
  turn,
  seq: 0,
  attempt: 1,
  ts: '2026-01-01T00:00:00.000Z',
  role: 'examiner',
  content: 'next',
  ...(usage ? { usage } : {}),
});

describe('runTokens', () => {
  it('sums each role over its calls, repeated attempts included', () => {
    const tokens = runTokens(
      [examinerEvent(1), examinerEvent(2, { input_tokens: 10, output_tokens: 2 }), examinerEvent(3, { input_tokens: 12, output_tokens: 1 })],
      [step('examiner', 2, null), step('examiner', 3, null), step('candidate', 1, { input_tokens: 50, output_tokens: 5, cache_read_tokens: 40 }), step('candidate', 2, { input_tokens: 60, output_tokens: 6 })],
      { score: {} as never, raw: '', model: 'j', usage: { input_tokens: 7, output_tokens: 3 }, judgedAt: '2026-01-01T00:00:00.000Z' },
    );
    expect(tokens).toEqual({
      examiner: { input_tokens: 22, output_tokens: 3 },
      candidate: { input_tokens: 110, output_tokens: 11, cache_read_tokens: 40 },
      judge: { input_tokens: 7, output_tokens: 3 },
    });
  });

  it('says unknown (null), never 0, when a call did not report its usage; none used when no call was made', () => {
    const tokens = runTokens([examinerEvent(1)], [step('candidate', 1, { input_tokens: 5, output_tokens: 1 }), step('candidate', 2, null)], { score: {} as never, raw: '', model: 'j', usage: null, judgedAt: '2026-01-01T00:00:00.000Z' });
    expect(tokens).toEqual({ examiner: { input_tokens: 0, output_tokens: 0 }, candidate: null, judge: null });
    expect(runTokens([], [], null)).toEqual({ examiner: { input_tokens: 0, output_tokens: 0 }, candidate: { input_tokens: 0, output_tokens: 0 }, judge: { input_tokens: 0, output_tokens: 0 } });
  });
});
