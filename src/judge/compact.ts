import { InternalError } from '../errors.js';
import type { TranscriptEvent } from '../transcript/schema.js';

/** Largest compacted transcript sent to the judge, in UTF-8 bytes (160 KB). */
export const COMPACT_MAX_BYTES = 160 * 1024;
/** Share of the budget kept from the start of an over-long transcript; the rest comes from its end. */
export const COMPACT_HEAD_SHARE = 0.6;
/** Thinking is private reasoning, not evidence of action: keep only its beginning. */
export const THINKING_MAX_CHARS = 500;

export interface CompactOptions {
  maxBytes?: number;
  headShare?: number;
  thinkingMaxChars?: number;
}

export interface CompactTranscript {
  /** One block per event, `[Turn N][role] text`; continuation lines are indented by two spaces. */
  text: string;
  /** Events rendered (after dropping partials and superseded tool starts). */
  events: number;
  /** Size of the rendered transcript before elision, in UTF-8 bytes. */
  bytes: number;
  /** Bytes cut from the middle; 0 when the transcript fit the budget. */
  elidedBytes: number;
  /** Events cut entirely, and events cut in part at either edge of the elision. */
  elidedEvents: number;
  partlyElidedEvents: number;
}

const CONTINUATION_INDENT = '  ';
/**
 * How far a tool call's `started` event waits for its `completed` one, in events and in bytes
 * of the blocks held behind it. Paired calls complete within a few events; a start still
 * unmatched past this is kept, as if hung, so memory stays bounded on any transcript.
 */
const PAIRING_WINDOW_EVENTS = 2_000;
const PAIRING_WINDOW_BYTES = 4 * 1024 * 1024;

/**
 * Render a run's transcript for the judge prompt. Streaming partials are dropped (the final
 * reply repeats them), and a tool call's `started` event is dropped when its `completed` event
 * is present, since the completed summary is self-contained (`shell: go build → exit=0`); a
 * start without completion stays, as evidence of a hung or interrupted call. Continuation lines
 * are indented so no line of content can pass for an event header.
 */
export function compactTranscript(events: readonly TranscriptEvent[], options: CompactOptions = {}): CompactTranscript {
  const compactor = createCompactor(options);
  const ordered = events
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.turn - b.event.turn || a.event.seq - b.event.seq || a.index - b.index);
  for (const { event } of ordered) compactor.push(event);
  return compactor.finish();
}

/**
 * The same rendering over a stream of events in (turn, seq) order, as the store and
 * transcript.jsonl hold them, in memory bounded by the budget and the pairing window rather
 * than by the transcript's size.
 */
export async function compactTranscriptStream(events: AsyncIterable<TranscriptEvent> | Iterable<TranscriptEvent>, options: CompactOptions = {}): Promise<CompactTranscript> {
  const compactor = createCompactor(options);
  for await (const event of events) compactor.push(event);
  return compactor.finish();
}

interface Held {
  block: string;
  bytes: number;
  /** A tool call's start still waiting for its completion. */
  startedId?: string;
  dropped?: boolean;
}

/** Events in, one at a time, in order; `finish` gives the compacted transcript. */
export function createCompactor(options: CompactOptions = {}): { push(event: TranscriptEvent): void; finish(): CompactTranscript } {
  const maxBytes = options.maxBytes ?? COMPACT_MAX_BYTES;
  const thinkingMaxChars = options.thinkingMaxChars ?? THINKING_MAX_CHARS;
  const sink = createBlockSink(maxBytes, options.headShare ?? COMPACT_HEAD_SHARE);
  const completed = new Set<string>();
  const waiting = new Map<string, Held>();
  const held: Held[] = [];
  let heldBytes = 0;
  let last: { turn: number; seq: number } | undefined;

  /** Blocks leave in order, once no start ahead of them still waits (or waits too long). */
  const release = (force: boolean) => {
    while (held.length > 0) {
      const front = held[0]!;
      const waits = front.startedId !== undefined && !front.dropped && waiting.has(front.startedId);
      if (waits && !force && held.length <= PAIRING_WINDOW_EVENTS && heldBytes <= PAIRING_WINDOW_BYTES) return;
      held.shift();
      heldBytes -= front.bytes;
      if (front.startedId !== undefined) waiting.delete(front.startedId);
      if (!front.dropped) sink.add(front.block, front.bytes);
    }
  };

  return {
    push(event) {
      if (last && (event.turn < last.turn || (event.turn === last.turn && event.seq < last.seq))) {
        throw new InternalError(`compactTranscriptStream: events out of order (turn ${event.turn} seq ${event.seq} after turn ${last.turn} seq ${last.seq})`);
      }
      last = { turn: event.turn, seq: event.seq };
      if (event.role === 'candidate.assistant_partial') return;
      const toolId = event.tool?.id;
      if (event.role === 'candidate.tool_call.completed' && event.tool && toolId !== undefined) {
        completed.add(toolId);
        const start = waiting.get(toolId);
        if (start) start.dropped = true;
      }
      if (event.role === 'candidate.tool_call.started' && event.tool && toolId !== undefined && completed.has(toolId)) return;
      const block = renderEvent(event, thinkingMaxChars);
      const entry: Held = { block, bytes: Buffer.byteLength(block, 'utf8') };
      if (event.role === 'candidate.tool_call.started' && event.tool && toolId !== undefined) {
        entry.startedId = toolId;
        waiting.set(toolId, entry);
      }
      held.push(entry);
      heldBytes += entry.bytes;
      release(false);
    },
    finish() {
      release(true);
      return sink.finish();
    },
  };
}

function renderEvent(event: TranscriptEvent, thinkingMaxChars: number): string {
  let content = event.content.replace(/\r\n?/g, '\n').trimEnd();
  if (event.role === 'candidate.thinking') content = cutChars(content, thinkingMaxChars);
  if (content.trim() === '') content = '(empty)';
  const [first = '', ...rest] = content.split('\n');
  const lines = [`[Turn ${event.turn}][${event.role}] ${first}`, ...rest.map((line) => CONTINUATION_INDENT + line)];
  return lines.join('\n');
}

/** Cut to `max` characters (code points, so no surrogate pair is split) and say how much went. */
function cutChars(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, max).join('')} […${chars.length - max} more chars cut]`;
}

interface Placed {
  block: string;
  start: number;
  end: number;
}

/**
 * Where rendered blocks go: the whole text while it fits the budget, else its first
 * `headShare` of the budget and its last bytes with a marker between. Keeps only the blocks
 * that can reach either edge, plus the offsets of early blocks to count what was cut.
 */
function createBlockSink(maxBytes: number, headShare: number): { add(block: string, bytes: number): void; finish(): CompactTranscript } {
  const headLimit = Math.floor(maxBytes * headShare);
  const tailLimit = maxBytes - headLimit;
  const prefix: string[] = [];
  const tail: Placed[] = [];
  /** Blocks gone from the tail window that started inside the head's reach: counted at the end. */
  const early: { start: number; end: number }[] = [];
  let elidedWhole = 0;
  let count = 0;
  let total = 0;

  return {
    add(block, bytes) {
      const start = count === 0 ? 0 : total + 1;
      const end = start + bytes;
      count++;
      total = end;
      if (start <= maxBytes) prefix.push(block);
      tail.push({ block, start, end });
      while (tail.length > 1 && tail[0]!.end < total - tailLimit) {
        const gone = tail.shift()!;
        // Gone blocks end before the tail's cut, which only moves later; the head's cut is at most headLimit.
        if (gone.start >= headLimit) elidedWhole++;
        else early.push({ start: gone.start, end: gone.end });
      }
    },
    finish() {
      if (total <= maxBytes) {
        return { text: prefix.join('\n'), events: count, bytes: total, elidedBytes: 0, elidedEvents: 0, partlyElidedEvents: 0 };
      }
      // Snap both cuts to UTF-8 character starts, each towards the elided side, so neither kept
      // part holds half a character and neither exceeds its share.
      const head = Buffer.from(prefix.join('\n'), 'utf8');
      let headEnd = headLimit;
      while (headEnd > 0 && isContinuationByte(head[headEnd])) headEnd--;
      const tailText = Buffer.from(tail.map((placed) => placed.block).join('\n'), 'utf8');
      const tailOffset = tail[0]!.start;
      let tailStart = total - tailLimit;
      while (tailStart < total && isContinuationByte(tailText[tailStart - tailOffset])) tailStart++;

      let whole = elidedWhole;
      let partial = 0;
      for (const { start, end } of [...early, ...tail]) {
        if (start >= headEnd && end <= tailStart) whole++;
        else if (start < tailStart && end > headEnd) partial++;
      }
      const elidedBytes = tailStart - headEnd;
      const marker = `[… ${elidedBytes} bytes elided: ${whole} events in full and ${partial} in part; the transcript exceeded ${maxBytes} bytes …]`;
      return {
        text: `${head.subarray(0, headEnd).toString('utf8')}\n${marker}\n${tailText.subarray(tailStart - tailOffset).toString('utf8')}`,
        events: count,
        bytes: total,
        elidedBytes,
        elidedEvents: whole,
        partlyElidedEvents: partial,
      };
    },
  };
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
