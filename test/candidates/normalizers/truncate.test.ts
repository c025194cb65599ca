import { describe, expect, it } from 'vitest';
import { cutNote, formatSize, sizeOf } from '../../../src/candidates/normalizers/cutNote.js';
import { createTextKeeper, cutMiddle } from '../../../src/candidates/normalizers/truncate.js';

describe('cut notes', () => {
  it('say how much was cut and what was kept', () => {
    expect(cutNote(59_968_000, 16_000, 16_000)).toBe('[… 60.0 MB cut: kept the first 16,000 and last 16,000 characters]');
    expect(cutNote(1_500, 0, 16_000)).toBe('[… 1.5 kB cut: kept the last 16,000 characters]');
    expect([0, 1, 999, 1_000, 999_949, 999_999, 9_968_005, 2_500_000_000].map(formatSize)).toEqual(['0 bytes', '1 byte', '999 bytes', '1.0 kB', '999.9 kB', '1.0 MB', '10.0 MB', '2.5 GB']);
  });

  it('count as the bytes they stand for when the size of text is asked', () => {
    expect(sizeOf(`ab${cutNote(2_000, 1, 1)}é`)).toBe(2 + 2_000 + 2);
  });
});

describe('cutMiddle', () => {
  it('keeps the first and last characters around a note, and cutting again changes nothing', () => {
    const text = `${'a'.repeat(10)}${'b'.repeat(5_000)}${'c'.repeat(10)}`;
    const once = cutMiddle(text, 10, 10);
    expect(once).toBe(`${'a'.repeat(10)}[… 5.0 kB cut: kept the first 10 and last 10 characters]${'c'.repeat(10)}`);
    expect(cutMiddle(once, 10, 10)).toBe(once);
    expect(cutMiddle('short', 10, 10)).toBe('short');
  });

  it('adds up an earlier cut inside the middle instead of hiding it', () => {
    const earlier = `${'x'.repeat(100)}${cutNote(3_000_000, 100, 100)}${'y'.repeat(100)}`;
    expect(cutMiddle(earlier, 50, 50)).toBe(`${'x'.repeat(50)}[… 3.0 MB cut: kept the first 50 and last 50 characters]${'y'.repeat(50)}`);
  });

  it('never splits a surrogate pair', () => {
    expect(cutMiddle('😀'.repeat(100), 3, 3)).toBe('😀[… 392 bytes cut: kept the first 2 and last 2 characters]😀');
  });
});

describe('createTextKeeper', () => {
  it('keeps text arriving in pieces exactly as cutting it whole would', () => {
    const pieces = Array.from({ length: 3_000 }, (_, i) => `line ${i}: ${'z'.repeat(i % 700)}\n`);
    const keeper = createTextKeeper(16_000, 16_000);
    for (const piece of pieces) keeper.push(piece);
    expect(keeper.text()).toBe(cutMiddle(pieces.join(''), 16_000, 16_000));
    expect(keeper.text()).toMatch(/^line 0: \n.*\[… 1\.0 MB cut: kept the first 16,000 and last 16,000 characters\].*line 2999: z+\n$/s);
  });

  it('leaves text that fits unchanged', () => {
    const keeper = createTextKeeper(5, 5);
    for (const piece of ['ab', 'cdefg', 'hij']) keeper.push(piece);
    expect(keeper.text()).toBe('abcdefghij');
  });
});
