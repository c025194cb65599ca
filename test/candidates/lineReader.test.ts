import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLineReader, describeLineCut, type LineCut } from '../../src/candidates/lineReader.js';

const STREAMS = join(import.meta.dirname, '../fixtures/agent-streams');

/** Feed `text` in chunks of `size` characters; returns every line with its cut. */
function read(text: string, size = 65_536): { line: string; cut?: LineCut }[] {
  const lines: { line: string; cut?: LineCut }[] = [];
  const reader = createLineReader((line, cut) => lines.push(cut ? { line, cut } : { line }));
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  reader.flush();
  return lines;
}

const NOTE = /\[… [^\]]+ characters\]/;

describe('createLineReader', () => {
  it('passes lines up to 1 MB on exactly as printed, across chunks, without a cut', () => {
    const long = `{"type":"x","text":"${'a'.repeat(999_000)}"}`;
    expect(read(`one\r\n\ntwo\n${long}\nlast`, 7)).toEqual([{ line: 'one' }, { line: '' }, { line: 'two' }, { line: long }, { line: 'last' }]);
    // Over 1 MB, but no string long enough to cut: still exactly as printed.
    const many = JSON.stringify({ type: 'x', items: Array.from({ length: 100_000 }, (_, i) => `item ${i}`) });
    expect(read(`${many}\n`)).toEqual([{ line: many }]);
  });

  it('reads a 10 MB JSON line as valid JSON: only its long strings lose their middles, each with a note of the cut', () => {
    const payload = 'line of build output\n'.repeat(500_000);
    const event = { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: payload, is_error: false }] }, tool_use_result: { stdout: payload, stderr: '' } };
    const [read1, ...rest] = read(`${JSON.stringify(event)}\n`);
    expect(rest).toEqual([]);
    expect(read1!.cut).toEqual({ bytes: Buffer.byteLength(JSON.stringify(event)), kind: 'strings', strings: 2 });
    const parsed = JSON.parse(read1!.line) as typeof event;
    expect(parsed.message.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: false });
    const content = parsed.message.content[0]!.content;
    const note = NOTE.exec(content)!;
    expect(note[0]).toBe('[… 10.5 MB cut: kept the first 16,000 and last 16,000 characters]');
    expect(payload.startsWith(content.slice(0, note.index))).toBe(true);
    expect(payload.endsWith(content.slice(note.index + note[0].length))).toBe(true);
    expect(parsed.tool_use_result.stdout).toBe(content);
    expect(read1!.line.length).toBeLessThan(70_000);
  });

  it('copies every line of the captured agent streams exactly when a long string makes it long', async () => {
    const files = (await readdir(STREAMS)).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.expected.jsonl'));
    const lines = (await Promise.all(files.map((f) => readFile(join(STREAMS, f), 'utf8')))).flatMap((text) => text.split('\n').filter((l) => l.startsWith('{')));
    expect(lines.length).toBeGreaterThan(100);
    const padded = lines.map((line) => `${line.slice(0, -1)},"padding":"${'p'.repeat(1_000_000)}"}`);
    const read1 = read(padded.join('\n'), 50_000);
    expect(read1.map(({ line }, i) => line.replace(/,"padding":"p{16000}\[… 968\.0 kB cut: kept the first 16,000 and last 16,000 characters\]p{16000}"\}$/, '}') === lines[i])).toEqual(lines.map(() => true));
  });

  it('never cuts inside an escape sequence, whatever the chunk boundaries', () => {
    const payload = `"\\\u00e9\u{1F600}\t`.repeat(400_000);
    for (const size of [1_000_003, 65_536, 4_099]) {
      const [line] = read(`${JSON.stringify({ type: 'assistant', text: payload, after: 'kept' })}\n`, size);
      const parsed = JSON.parse(line!.line) as { text: string; after: string };
      expect(parsed.after).toBe('kept');
      const note = NOTE.exec(parsed.text)!;
      expect(payload.startsWith(parsed.text.slice(0, note.index))).toBe(true);
      expect(payload.endsWith(parsed.text.slice(note.index + note[0].length))).toBe(true);
    }
  });

  it('keeps the first and last 16,000 characters of a long line that is not JSON', () => {
    const [line] = read(`${'h'.repeat(20_000)}${'m'.repeat(3_000_000)}${'t'.repeat(20_000)}\n`);
    expect(line!.cut).toEqual({ bytes: 3_040_000, kind: 'text', strings: 0 });
    expect(line!.line).toBe(`${'h'.repeat(16_000)}[… 3.0 MB cut: kept the first 16,000 and last 16,000 characters]${'t'.repeat(16_000)}`);
  });

  it('drops, and says so, a line that stays over 16 MB even with its long strings cut', () => {
    const numbers = `{"type":"x","values":[${'1,'.repeat(9_000_000)}1]}`;
    const [line, next] = read(`${numbers}\nafter\n`, 1 << 20);
    expect(line).toEqual({ line: '', cut: { bytes: numbers.length, kind: 'dropped', strings: 0 } });
    expect(next).toEqual({ line: 'after' });
    expect(describeLineCut('stdout line 4', line!.cut!)).toBe('stdout line 4 (18.0 MB) was dropped: even with its long strings cut it was over 16.0 MB');
  });
});
