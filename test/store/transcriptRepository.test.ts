import { describe, expect, it } from 'vitest';
import { FormatError, StoreError } from '../../src/errors.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';
import { aRun, anEvent, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('transcript events on %s', (backend) => {
  const store = useStore(backend);

  async function newRun(prefix: string): Promise<string> {
    const runId = uniqueId(prefix);
    await store().upsertRun(aRun({ run_id: runId }));
    return runId;
  }

  it('writing the same key twice keeps one row', async () => {
    const runId = await newRun('run-idem');
    const events = [anEvent({ run_id: runId, seq: 0, content: 'first' }), anEvent({ run_id: runId, seq: 1, content: 'second' })];

    expect(await store().appendTranscriptEvents(events)).toEqual({ inserted: 2 });
    expect(await store().appendTranscriptEvents(events)).toEqual({ inserted: 0 });
    // A retried write that overlaps the first one adds only the new event.
    expect(await store().appendTranscriptEvents([...events, anEvent({ run_id: runId, seq: 2, content: 'third' })])).toEqual({ inserted: 1 });

    const stored = await store().getTranscript(runId, { attempts: 'all' });
    expect(stored.map((e) => e.content)).toEqual(['first', 'second', 'third']);
  });

  it('a key repeated inside one batch is stored once, first one wins', async () => {
    const runId = await newRun('run-dup');
    const result = await store().appendTranscriptEvents([anEvent({ run_id: runId, content: 'a' }), anEvent({ run_id: runId, content: 'b' })]);
    expect(result).toEqual({ inserted: 1 });
    expect((await store().getTranscript(runId, { attempts: 'all' })).map((e) => e.content)).toEqual(['a']);
  });

  it('stores text holding NUL characters (binary tool output) with U+FFFD in their place', async () => {
    const runId = await newRun('run-nul');
    const tool = { id: 't\u00001', name: 'Bash', kind: 'shell' as const, target: 'find . -print0' };
    await store().appendTranscriptEvents([anEvent({ run_id: runId, role: 'candidate.tool_call.completed', content: 'shell: cat a.bin → exit=0 PNG\u0000\u0000IHDR', tool })]);
    const [stored] = await store().getTranscript(runId, { attempts: 'all' });
    expect(stored?.content).toBe('shell: cat a.bin → exit=0 PNG\uFFFD\uFFFDIHDR');
    expect(stored?.tool?.id).toBe('t\uFFFD1');
  });

  it('an empty batch inserts nothing', async () => {
    expect(await store().appendTranscriptEvents([])).toEqual({ inserted: 0 });
  });

  describe('attempt filtering', () => {
    // Turn 1 ran twice: attempt 1 wrote three events, then a retry rewrote it as attempt 2.
    const layout = (runId: string): TranscriptEvent[] => [
      anEvent({ run_id: runId, turn: 2, attempt: 1, seq: 0, content: 't2a1s0' }),
      anEvent({ run_id: runId, turn: 1, attempt: 2, seq: 1, content: 't1a2s1' }),
      anEvent({ run_id: runId, turn: 1, attempt: 1, seq: 2, content: 't1a1s2' }),
      anEvent({ run_id: runId, turn: 0, attempt: 1, seq: 0, role: 'examiner', content: 't0a1s0' }),
      anEvent({ run_id: runId, turn: 1, attempt: 1, seq: 0, content: 't1a1s0' }),
      anEvent({ run_id: runId, turn: 1, attempt: 2, seq: 0, content: 't1a2s0' }),
      anEvent({ run_id: runId, turn: 1, attempt: 1, seq: 1, content: 't1a1s1' }),
    ];

    it('latest keeps only the highest attempt of each turn, ordered by turn then seq', async () => {
      const runId = await newRun('run-latest');
      await store().appendTranscriptEvents(layout(runId));
      const latest = await store().getTranscript(runId, { attempts: 'latest' });
      expect(latest.map((e) => e.content)).toEqual(['t0a1s0', 't1a2s0', 't1a2s1', 't2a1s0']);
    });

    it('latest is the default', async () => {
      const runId = await newRun('run-default');
      await store().appendTranscriptEvents(layout(runId));
      expect((await store().getTranscript(runId)).map((e) => e.content)).toEqual(['t0a1s0', 't1a2s0', 't1a2s1', 't2a1s0']);
    });

    it('all keeps every attempt, ordered by turn, attempt, seq', async () => {
      const runId = await newRun('run-all');
      await store().appendTranscriptEvents(layout(runId));
      const all = await store().getTranscript(runId, { attempts: 'all' });
      expect(all.map((e) => e.content)).toEqual(['t0a1s0', 't1a1s0', 't1a1s1', 't1a1s2', 't1a2s0', 't1a2s1', 't2a1s0']);
    });

    it('never mixes in another run', async () => {
      const runId = await newRun('run-mine');
      const otherId = await newRun('run-other');
      await store().appendTranscriptEvents([anEvent({ run_id: runId, content: 'mine' }), anEvent({ run_id: otherId, attempt: 3, content: 'other' })]);
      expect((await store().getTranscript(runId)).map((e) => e.content)).toEqual(['mine']);
    });
  });

  it('round-trips tool and usage, leaves them absent when they were, and normalises ts to UTC', async () => {
    const runId = await newRun('run-fields');
    const toolCall = anEvent({
      run_id: runId,
      seq: 0,
      role: 'candidate.tool_call.completed',
      content: 'shell: go build → exit=0',
      ts: '2026-03-01T12:00:00.5+02:00',
      tool: { id: 'call_1', name: 'Bash', kind: 'shell', target: 'go build', exit_code: 0, is_error: false },
      usage: { input_tokens: 1200, output_tokens: 80, cost_usd: 0.0042 },
    });
    const reply = anEvent({ run_id: runId, seq: 1, content: '日本語 and "quotes" \\ backslash' });
    await store().appendTranscriptEvents([toolCall, reply]);

    const [first, second] = await store().getTranscript(runId);
    expect(first).toEqual({ ...toolCall, ts: '2026-03-01T10:00:00.500Z' });
    expect(second).toEqual(reply);
    expect(second).not.toHaveProperty('tool');
    expect(second).not.toHaveProperty('usage');
  });

  it('refuses events of a run that was never saved, naming it', async () => {
    const known = await newRun('run-known');
    const attempt = store().appendTranscriptEvents([anEvent({ run_id: known }), anEvent({ run_id: 'run-ghost' })]);
    await expect(attempt).rejects.toThrow(
      new StoreError(
        `store: appendTranscriptEvents("${known}", "run-ghost"; 2 events) failed: expected a row in runs for every run_id, found none for "run-ghost" (upsertRun first)`,
      ),
    );
    // The statement is atomic: the valid event was not written either.
    expect(await store().getTranscript(known)).toEqual([]);
  });

  it('refuses an invalid event before touching the database, naming index and field', async () => {
    const attempt = store().appendTranscriptEvents([anEvent({ run_id: 'r', role: 'assistant' as never })]);
    await expect(attempt).rejects.toBeInstanceOf(FormatError);
    await expect(attempt).rejects.toThrow(/^appendTranscriptEvents\(events\): 0\.role: /);
  });

  it('a ts that is not a timestamp is a StoreError naming the operation and the value', async () => {
    const runId = await newRun('run-badts');
    await expect(store().appendTranscriptEvents([anEvent({ run_id: runId, ts: 'yesterday-ish' })])).rejects.toThrow(
      new StoreError(`store: appendTranscriptEvents("${runId}"; 1 events) failed: invalid input syntax for type timestamp with time zone: "yesterday-ish" (SQLSTATE 22007)`),
    );
  });
});
