import { describe, expect, it } from 'vitest';
import { decodeCursorExcerpt } from '../../../src/editprediction/format/cursorMarkers.js';
import { locateCursor } from '../../../src/editprediction/replay/locateCursor.js';
import { FormatError } from '../../../src/errors.js';

const crlf = (text: string) => text.replace(/\n/g, '\r\n');
const FILE = 'import os\n\n\ndef main():\n    print(greet("world"))\n    print(greet("you"))\n';
const BLOCK = 'def main():\n    print(greet("world"))\n#         ^[CURSOR_POSITION]\n';

describe('locateCursor', () => {
  it('finds an LF excerpt in an LF file', () => {
    // "import os\n\n\n" is 12 bytes; "def main():\n" 12 more; the caret is at column 10.
    expect(locateCursor(FILE, decodeCursorExcerpt(BLOCK), 'app.py', 'demo')).toEqual({ excerptOffset: 12, cursorOffset: 12 + 12 + 10 });
  });

  it('finds a CRLF excerpt in the CRLF twin of the file, every CR before it counted', () => {
    // Three CRs before "def main():", one more before the cursor's line.
    expect(locateCursor(crlf(FILE), decodeCursorExcerpt(crlf(BLOCK)), 'app.py', 'demo')).toEqual({ excerptOffset: 12 + 3, cursorOffset: 12 + 3 + 13 + 10 });
  });

  it('finds a mixed excerpt, lone CR included, only where the file has the same bytes', () => {
    const file = 'a\r\nb\rc\nb\rc\r\nd\n';
    expect(locateCursor(file, decodeCursorExcerpt('b\rc\r\n<|user_cursor|>d\n'), 'f', 'demo')).toEqual({ excerptOffset: 7, cursorOffset: 12 });
  });

  it('does not find an LF excerpt in a CRLF file, nor a CRLF excerpt in an LF file, and says so', () => {
    expect(() => locateCursor(crlf(FILE), decodeCursorExcerpt(BLOCK), 'app.py', 'demo')).toThrow(/^demo: Cursor excerpt did not exist in buffer app\.py \(after the edit history\); the excerpt was:\n/);
    const crlfExcerpt = () => locateCursor(FILE, decodeCursorExcerpt(crlf(BLOCK)), 'app.py', 'demo');
    expect(crlfExcerpt).toThrow(FormatError);
    expect(crlfExcerpt).toThrow('demo: Cursor excerpt did not exist in buffer app.py (after the edit history) (the excerpt has CR line endings, the file has none)');
  });

  it('rejects an excerpt that occurs twice', () => {
    expect(() => locateCursor('x\r\nx\r\n', decodeCursorExcerpt('x<|user_cursor|>\r\n'), 'f', 'demo')).toThrow('demo: More than one cursor position match found: the excerpt occurs 2 times in f');
  });
});
