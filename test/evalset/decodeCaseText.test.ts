import { describe, expect, it } from 'vitest';
import { decodeCaseText } from '../../src/evalset/index.js';

const FILE = 'eval_sets/demo/task.md';
const EXPECTED = `${FILE}: encoding: expected UTF-8 text, found`;
const CHINESE = '## 题面\n\n> 加一个函数。\n\n## 场景背景\n\n开发者。\n\n## 考官指引\n\n一次结束。\n';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('decodeCaseText', () => {
  it('decodes UTF-8, Chinese headings included', () => {
    expect(decodeCaseText(Buffer.from(CHINESE), FILE)).toEqual({ text: CHINESE, problems: [] });
    expect(decodeCaseText(bytes('a', [0xf0, 0x9f, 0x98, 0x80]), FILE)).toEqual({ text: 'a😀', problems: [] });
    expect(decodeCaseText(Buffer.alloc(0), FILE)).toEqual({ text: '', problems: [] });
  });

  it('drops a UTF-8 byte order mark', () => {
    expect(decodeCaseText(bytes([0xef, 0xbb, 0xbf], CHINESE), FILE)).toEqual({ text: CHINESE, problems: [] });
  });

  it('names UTF-16 and UTF-32 by their byte order mark', () => {
    expect(decodeCaseText(bytes([0xff, 0xfe], ''), FILE).problems).toEqual([`${EXPECTED} UTF-16LE (byte order mark FF FE)`]);
    expect(decodeCaseText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CHINESE, 'utf16le')]), FILE).problems).toEqual([
      `${EXPECTED} UTF-16LE (byte order mark FF FE)`,
    ]);
    expect(decodeCaseText(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(CHINESE)]), FILE).problems).toEqual([
      `${EXPECTED} UTF-16BE (byte order mark FE FF)`,
    ]);
    expect(decodeCaseText(bytes([0xff, 0xfe, 0, 0], 'a\0\0\0'), FILE).problems).toEqual([`${EXPECTED} UTF-32LE (byte order mark FF FE 00 00)`]);
    expect(decodeCaseText(bytes([0, 0, 0xfe, 0xff], '\0\0\0a'), FILE).problems).toEqual([`${EXPECTED} UTF-32BE (byte order mark 00 00 FE FF)`]);
  });

  it('recognises UTF-16 without a byte order mark by where its NUL bytes fall', () => {
    expect(decodeCaseText(Buffer.from(CHINESE, 'utf16le'), FILE).problems).toEqual([`${EXPECTED} UTF-16LE (no byte order mark)`]);
    expect(decodeCaseText(utf16be(CHINESE), FILE).problems).toEqual([`${EXPECTED} UTF-16BE (no byte order mark)`]);
  });

  it('calls NUL bytes elsewhere binary data', () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0];
    expect(decodeCaseText(Buffer.from(png), FILE).problems).toEqual([`${EXPECTED} binary data (NUL bytes)`]);
    expect(decodeCaseText(bytes('## Prompt\n\0\n'), FILE).problems).toEqual([`${EXPECTED} binary data (NUL bytes)`]);
  });

  it('gives the line and offset of the first byte that is not UTF-8, such as GBK', () => {
    const gbkPrompt = [0xcc, 0xe2, 0xc3, 0xe6];
    expect(new TextDecoder('gbk').decode(Buffer.from(gbkPrompt))).toBe('题面');
    expect(decodeCaseText(bytes('# Task\n\n## ', gbkPrompt, '\n'), FILE).problems).toEqual([
      `${FILE}:3: encoding: expected UTF-8 text, found bytes that are not UTF-8 at offset 11 (GBK or another legacy encoding?)`,
    ]);
    // Offsets count from the start of the file, byte order mark included.
    expect(decodeCaseText(bytes([0xef, 0xbb, 0xbf], 'ab', [0xff]), FILE).problems).toEqual([
      `${FILE}:1: encoding: expected UTF-8 text, found bytes that are not UTF-8 at offset 5 (GBK or another legacy encoding?)`,
    ]);
  });

  it.each([
    ['a stray continuation byte', [0x80]],
    ['an overlong two-byte form', [0xc0, 0x80]],
    ['an overlong three-byte form', [0xe0, 0x80, 0x80]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut short at the end', [0xe4, 0xb8]],
    ['a sequence cut short by ASCII', [0xe4, 0x41, 0x80]],
  ])('rejects %s', (_name, invalid) => {
    expect(decodeCaseText(bytes('ok\n', invalid), FILE).problems).toEqual([
      `${FILE}:2: encoding: expected UTF-8 text, found bytes that are not UTF-8 at offset 3 (GBK or another legacy encoding?)`,
    ]);
  });
});
