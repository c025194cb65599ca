/**
 * Decode a case file as UTF-8, dropping a leading UTF-8 byte order mark (it would hide a
 * first-line heading or key). Any other encoding is reported instead of decoded: guessed
 * text would reach the parsers as garbage (UTF-16 YAML reads as one long string) or, when
 * it happens to parse, reach the candidate and judge as mojibake.
 */
export function decodeCaseText(bytes: Buffer, file: string): { text?: string; problems: string[] } {
  const found = foundEncoding(bytes);
  if (found) {
    const where = found.line === undefined ? file : `${file}:${found.line}`;
    return { problems: [`${where}: encoding: expected UTF-8 text, found ${found.what}`] };
  }
  return { text: bytes.toString('utf8', startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0), problems: [] };
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Longest first: the UTF-32LE mark begins with the UTF-16LE one. */
const FOREIGN_BOMS = [
  { name: 'UTF-32LE', bytes: [0xff, 0xfe, 0x00, 0x00] },
  { name: 'UTF-32BE', bytes: [0x00, 0x00, 0xfe, 0xff] },
  { name: 'UTF-16LE', bytes: [0xff, 0xfe] },
  { name: 'UTF-16BE', bytes: [0xfe, 0xff] },
];

/** What the bytes are when they are not UTF-8 text, or undefined when they are. */
function foundEncoding(bytes: Buffer): { what: string; line?: number } | undefined {
  for (const bom of FOREIGN_BOMS) {
    if (startsWith(bytes, bom.bytes)) return { what: `${bom.name} (byte order mark ${hex(bom.bytes)})` };
  }
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return { what: `${utf16} (no byte order mark)` };
  // NUL is valid UTF-8, but no text editor writes it: the file is not text.
  if (bytes.includes(0)) return { what: 'binary data (NUL bytes)' };
  const offset = firstInvalidUtf8(bytes);
  if (offset === -1) return undefined;
  const line = 1 + bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length;
  return { what: `bytes that are not UTF-8 at offset ${offset} (GBK or another legacy encoding?)`, line };
}

/**
 * UTF-16 text mostly holds characters below U+0100, whose high byte is NUL: NULs on one side
 * of each byte pair only. Binary data has NULs on both sides; CJK characters rarely have one.
 */
function utf16WithoutBom(bytes: Buffer): 'UTF-16LE' | 'UTF-16BE' | undefined {
  const sample = bytes.subarray(0, 4096);
  let even = 0;
  let odd = 0;
  sample.forEach((byte, index) => {
    if (byte !== 0) return;
    if (index % 2 === 0) even += 1;
    else odd += 1;
  });
  const enough = Math.max(2, sample.length / 32);
  if (odd >= enough && even * 4 <= odd) return 'UTF-16LE';
  if (even >= enough && odd * 4 <= even) return 'UTF-16BE';
  return undefined;
}

/**
 * Offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF), or -1 when there is none.
 */
function firstInvalidUtf8(bytes: Buffer): number {
  let offset = 0;
  while (offset < bytes.length) {
    const lead = bytes[offset] ?? 0;
    if (lead < 0x80) {
      offset += 1;
      continue;
    }
    const sequence = SEQUENCES.find((candidate) => lead >= candidate.from && lead <= candidate.to);
    if (!sequence) return offset;
    for (let index = 1; index <= sequence.continuations; index++) {
      const byte = bytes[offset + index];
      const [low, high] = index === 1 ? sequence.second : [0x80, 0xbf];
      if (byte === undefined || byte < low || byte > high) return offset;
    }
    offset += 1 + sequence.continuations;
  }
  return -1;
}

/** Lead-byte ranges with their continuation count and the range allowed for the second byte. */
const SEQUENCES: { from: number; to: number; continuations: number; second: [number, number] }[] = [
  { from: 0xc2, to: 0xdf, continuations: 1, second: [0x80, 0xbf] },
  { from: 0xe0, to: 0xe0, continuations: 2, second: [0xa0, 0xbf] },
  { from: 0xe1, to: 0xec, continuations: 2, second: [0x80, 0xbf] },
  { from: 0xed, to: 0xed, continuations: 2, second: [0x80, 0x9f] },
  { from: 0xee, to: 0xef, continuations: 2, second: [0x80, 0xbf] },
  { from: 0xf0, to: 0xf0, continuations: 3, second: [0x90, 0xbf] },
  { from: 0xf1, to: 0xf3, continuations: 3, second: [0x80, 0xbf] },
  { from: 0xf4, to: 0xf4, continuations: 3, second: [0x80, 0x8f] },
];

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function hex(bytes: readonly number[]): string {
  return bytes.map((byte) => byte.toString(16).toUpperCase().padStart(2, '0')).join(' ');
}
