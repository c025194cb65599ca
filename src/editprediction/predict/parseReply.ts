import { INLINE_CURSOR_MARKER } from '../format/cursorMarkers.js';
import { indexToByte, rustTrim } from '../format/rustStr.js';
import { EDITABLE_REGION_END, EDITABLE_REGION_START, NO_EDITS } from './prompt.js';

export type ModelReply =
  | { kind: 'noEdits' }
  | { kind: 'region'; text: string; /** UTF-8 byte offset of the cursor in `text`. */ cursor: number | undefined }
  | { kind: 'malformed'; reason: string };

const START = EDITABLE_REGION_START.trim();
const END = EDITABLE_REGION_END.trim();

/**
 * Read a model reply: `NO_EDITS`, or the rewritten region between the region markers (the
 * last such block; one line end, LF or CRLF, after the start marker and before the end marker
 * belongs to the markers) with an optional cursor marker. Anything else is malformed, never an
 * exception.
 */
export function parseModelReply(reply: string): ModelReply {
  const start = reply.lastIndexOf(START);
  const end = start === -1 ? -1 : reply.indexOf(END, start + START.length);
  if (start === -1 || end === -1) {
    if (rustTrim(reply) === NO_EDITS) return { kind: 'noEdits' };
    const reason = start === -1 ? `no ${START} marker` : `no ${END} marker after ${START}`;
    return { kind: 'malformed', reason: `the reply has ${reason}; expected the rewritten region between them, or ${NO_EDITS}` };
  }
  const region = reply
    .slice(start + START.length, end)
    .replace(/^\r?\n/, '')
    .replace(/\r?\n$/, '');
  const cursorAt = region.indexOf(INLINE_CURSOR_MARKER);
  const cursor = cursorAt === -1 ? undefined : indexToByte(region, cursorAt);
  return { kind: 'region', text: region.split(INLINE_CURSOR_MARKER).join(''), cursor };
}
