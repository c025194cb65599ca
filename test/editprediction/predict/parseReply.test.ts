import { describe, expect, it } from 'vitest';
import { parseModelReply } from '../../../src/editprediction/predict/parseReply.js';

describe('parseModelReply', () => {
  it('reads the region between the markers and the cursor byte offset', () => {
    const reply = 'Sure:\n<|editable_region_start|>\nlet é = 1;<|user_cursor|>\n<|editable_region_end|>\ndone';
    expect(parseModelReply(reply)).toEqual({ kind: 'region', text: 'let é = 1;', cursor: Buffer.byteLength('let é = 1;') });
  });

  it('accepts a region without cursor, and NO_EDITS', () => {
    expect(parseModelReply('<|editable_region_start|>\nx\n<|editable_region_end|>')).toEqual({ kind: 'region', text: 'x', cursor: undefined });
    expect(parseModelReply('  NO_EDITS\n')).toEqual({ kind: 'noEdits' });
  });

  it('reports replies without markers as malformed instead of throwing', () => {
    expect(parseModelReply('I think you should add a semicolon.')).toEqual({
      kind: 'malformed',
      reason: 'the reply has no <|editable_region_start|> marker; expected the rewritten region between them, or NO_EDITS',
    });
    expect(parseModelReply('<|editable_region_start|>\nx')).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('no <|editable_region_end|> marker') });
  });
});

describe('parseModelReply with CRLF', () => {
  it('takes a CRLF after the start marker and before the end marker as the markers’ own, keeping the region’s CRs', () => {
    expect(parseModelReply('<|editable_region_start|>\r\na\r\nb\r\n<|editable_region_end|>')).toEqual({ kind: 'region', text: 'a\r\nb', cursor: undefined });
    expect(parseModelReply('<|editable_region_start|>\na\r\n<|user_cursor|>b\r\n\n<|editable_region_end|>')).toEqual({ kind: 'region', text: 'a\r\nb\r\n', cursor: 3 });
  });
});
