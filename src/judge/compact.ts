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
 * Render a run's transcript for the judge prompt. Streaming partials are dropped (the final
 * reply repeats them), and a tool call's `started` event is dropped when its `completed` event
 * is present, since the completed summary is self-contained (`shell: go build → exit=0`); a
 * start without completion stays, as evidence of a hung or interrupted call. Continuation lines
 * are indented so no line of content can pass for an event header.
 */
export function compactTranscript(events: readonly TranscriptEvent[], options: CompactOptions = {}): CompactTranscript {
  const maxBytes = options.maxBytes ?? COMPACT_MAX_BYTES;
  const headShare = options.headShare ?? COMPACT_HEAD_SHARE;
  const thinkingMaxChars = options.thinkingMaxChars ?? THINKING_MAX_CHARS;

  const blocks = selectEvents(events).map((event) => renderEvent(event, thinkingMaxChars));
  const text = blocks.join('\n');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) {
    return { text, events: blocks.length, bytes, elidedBytes: 0, elidedEvents: 0, partlyElidedEvents: 0 };
  }
  return elideMiddle(blocks, text, maxBytes, headShare);
}

function selectEvents(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const completedIds = new Set(
    events.filter((e) => e.role === 'candidate.tool_call.completed' && e.tool).map((e) => e.tool?.id),
  );
  return events
    .filter((e) => e.role !== 'candidate.assistant_partial')
    .filter((e) => !(e.role === 'candidate.tool_call.started' && e.tool && completedIds.has(e.tool.id)))
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.turn - b.event.turn || a.event.seq - b.event.seq || a.index - b.index)
    .map(({ event }) => event);
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

function elideMiddle(blocks: string[], text: string, maxBytes: number, headShare: number): CompactTranscript {
  const buffer = Buffer.from(text, 'utf8');
  const headLimit = Math.floor(maxBytes * headShare);
  const tailLimit = maxBytes - headLimit;

  // Snap both cuts to UTF-8 character starts, each towards the elided side, so neither kept
  // part holds half a character and neither exceeds its share.
  let headEnd = headLimit;
  while (headEnd > 0 && isContinuationByte(buffer[headEnd])) headEnd--;
  let tailStart = buffer.length - tailLimit;
  while (tailStart < buffer.length && isContinuationByte(buffer[tailStart])) tailStart++;

  let offset = 0;
  let whole = 0;
  let partial = 0;
  for (const block of blocks) {
    const start = offset;
    const end = start + Buffer.byteLength(block, 'utf8');
    offset = end + 1;
    if (start >= headEnd && end <= tailStart) whole++;
    else if (start < tailStart && end > headEnd) partial++;
  }

  const elidedBytes = tailStart - headEnd;
  const marker = `[… ${elidedBytes} bytes elided: ${whole} events in full and ${partial} in part; the transcript exceeded ${maxBytes} bytes …]`;
  const head = buffer.subarray(0, headEnd).toString('utf8');
  const tail = buffer.subarray(tailStart).toString('utf8');
  return {
    text: `${head}\n${marker}\n${tail}`,
    events: blocks.length,
    bytes: buffer.length,
    elidedBytes,
    elidedEvents: whole,
    partlyElidedEvents: partial,
  };
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
