import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.js';
import { compactTranscript, compactTranscriptStream } from '../../src/judge/index.js';
import type { TranscriptEvent } from '../../src/transcript/schema.js';
import { anEvent } from './builders.js';

/** A seeded mix of every role, tool pairs a few events apart, multi-byte text and long replies. */
function mixedTranscript(seed: number, length: number): TranscriptEvent[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const events: TranscriptEvent[] = [];
  const open: string[] = [];
  for (let i = 0; i < length; i++) {
    const turn = 1 + Math.floor(i / 50);
    const pick = next();
    const text = `${'word '.repeat(1 + Math.floor(next() * 40))}${next() < 0.2 ? '中文😀' : ''}${next() < 0.1 ? '\nsecond line\r\nthird' : ''}`;
    if (pick < 0.2) {
      const id = `t${i}`;
      open.push(id);
      events.push(anEvent({ turn, seq: i, role: 'candidate.tool_call.started', content: `shell: ${text}`, tool: { id, name: 'Bash', kind: 'shell' } }));
    } else if (pick < 0.38 && open.length > 0) {
      const id = open.shift()!;
      events.push(anEvent({ turn, seq: i, role: 'candidate.tool_call.completed', content: `shell: ${text} → exit=0`, tool: { id, name: 'Bash', kind: 'shell' } }));
    } else if (pick < 0.5) events.push(anEvent({ turn, seq: i, role: 'candidate.assistant_partial', content: text }));
    else if (pick < 0.6) events.push(anEvent({ turn, seq: i, role: 'candidate.thinking', content: text.repeat(30) }));
    else events.push(anEvent({ turn, seq: i, role: pick < 0.8 ? 'candidate' : 'examiner', content: text.repeat(next() < 0.05 ? 200 : 1) }));
  }
  return events;
}

/** The plain definition: render everything, join, keep the first and last bytes of the budget. */
function reference(events: TranscriptEvent[], maxBytes: number): string {
  const completed = new Set(events.filter((e) => e.role === 'candidate.tool_call.completed').map((e) => e.tool?.id));
  const full = compactTranscript(
    events.filter((e) => !(e.role === 'candidate.tool_call.started' && completed.has(e.tool?.id))),
    { maxBytes: Number.MAX_SAFE_INTEGER },
  ).text;
  const bytes = Buffer.from(full, 'utf8');
  if (bytes.length <= maxBytes) return full;
  const continuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;
  let head = Math.floor(maxBytes * 0.6);
  while (head > 0 && continuation(bytes[head])) head--;
  let tail = bytes.length - (maxBytes - Math.floor(maxBytes * 0.6));
  while (tail < bytes.length && continuation(bytes[tail])) tail++;
  return `${bytes.subarray(0, head).toString('utf8')}\n${bytes.subarray(tail).toString('utf8')}`;
}

async function* stream(events: TranscriptEvent[]): AsyncGenerator<TranscriptEvent> {
  for (const event of events) yield event;
}

describe('compactTranscriptStream', () => {
  it.each([1, 2, 3, 4, 5])('gives the same text and counts as the whole-array compaction (seed %i)', async (seed) => {
    const events = mixedTranscript(seed, 3_000);
    for (const maxBytes of [500, 4_096, 50_000, 10_000_000]) {
      const streamed = await compactTranscriptStream(stream(events), { maxBytes });
      expect(streamed).toEqual(compactTranscript(events, { maxBytes }));
      expect(streamed.text.replace(/\n\[… \d+ bytes elided: [^\n]*…\]\n/, '\n')).toBe(reference(events, maxBytes));
    }
  });

  it('counts elided events as the whole text would: every rendered event is kept, cut whole or cut in part', async () => {
    const events = mixedTranscript(7, 5_000);
    const compact = await compactTranscriptStream(stream(events), { maxBytes: 8_000 });
    const rendered = compactTranscript(events, { maxBytes: Number.MAX_SAFE_INTEGER }).text.split('\n').filter((line) => line.startsWith('[Turn ')).length;
    const kept = compact.text.split('\n').filter((line) => line.startsWith('[Turn ')).length;
    expect(compact.events).toBe(rendered);
    // Each kept header belongs to an event not elided whole; a partly elided event may show its header.
    expect(compact.events - compact.elidedEvents).toBeGreaterThanOrEqual(kept);
    expect(compact.events - compact.elidedEvents - compact.partlyElidedEvents).toBeLessThanOrEqual(kept);
  });

  it('drops a start whose completion comes within the pairing window, keeps one that comes after it', async () => {
    const tool = (id: string) => ({ id, name: 'Bash', kind: 'shell' as const });
    const filler = (from: number, n: number) => Array.from({ length: n }, (_, i) => anEvent({ seq: from + i, role: 'examiner', content: `filler ${from + i}` }));
    const events = [
      anEvent({ seq: 0, role: 'candidate.tool_call.started', content: 'shell: near', tool: tool('near') }),
      ...filler(1, 100),
      anEvent({ seq: 101, role: 'candidate.tool_call.completed', content: 'shell: near → exit=0', tool: tool('near') }),
      anEvent({ seq: 102, role: 'candidate.tool_call.started', content: 'shell: far', tool: tool('far') }),
      ...filler(103, 2_100),
      anEvent({ seq: 2_203, role: 'candidate.tool_call.completed', content: 'shell: far → exit=0', tool: tool('far') }),
    ];
    const { text } = await compactTranscriptStream(events, { maxBytes: 10_000_000 });
    expect(text).not.toContain('[candidate.tool_call.started] shell: near');
    expect(text).toContain('[candidate.tool_call.started] shell: far');
  });

  it('refuses events out of order: the whole-array form sorts them, a stream cannot', async () => {
    const events = [anEvent({ turn: 2, seq: 0 }), anEvent({ turn: 1, seq: 5 })];
    await expect(compactTranscriptStream(events)).rejects.toThrow(InternalError);
    expect(compactTranscript(events).events).toBe(2);
  });

  it('keeps only the budget of a long stream: 200,000 events compact to under 161 KB', async () => {
    async function* many(): AsyncGenerator<TranscriptEvent> {
      for (let i = 0; i < 200_000; i++) yield anEvent({ turn: 1 + Math.floor(i / 1000), seq: i, role: i % 2 ? 'candidate' : 'examiner', content: `message ${i} `.repeat(10) });
    }
    const compact = await compactTranscriptStream(many());
    expect(compact.events).toBe(200_000);
    expect(compact.bytes).toBeGreaterThan(20_000_000);
    expect(Buffer.byteLength(compact.text)).toBeLessThan(161 * 1024);
    expect(compact.text).toContain('message 199999');
    expect(compact.text).toContain('message 0 ');
  });
});
