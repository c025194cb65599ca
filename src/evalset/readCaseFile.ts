import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeCaseText } from './decodeCaseText.js';
import { CASE_FILES, MAX_CASE_FILE_BYTES } from './schema.js';
import type { CaseFile } from './schema.js';

/** One case file as stored (`bytes`, which the case hash covers) and as text for its parser. */
export interface CaseFileText {
  text?: string;
  bytes?: Buffer;
  problems: string[];
}

/**
 * Read `file` of the case folder `dir`, reporting problems under `label`. The size is checked
 * from the file's metadata first, so a huge file is never read; the bytes must then be UTF-8.
 */
export async function readCaseFile(dir: string, file: CaseFile, label: string): Promise<CaseFileText> {
  const target = path.join(dir, file);
  try {
    const problem = checkStats(await stat(target), file, label);
    if (problem) return { problems: [problem] };
    const bytes = await readFile(target);
    return { ...decodeCaseText(bytes, label), bytes };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? `${label}: missing file; every eval case folder holds ${CASE_FILES.join(', ')}`
        : `${label}: cannot read the file (${code ?? (error as Error).message})`;
    return { problems: [problem] };
  }
}

function checkStats(stats: Stats, file: CaseFile, label: string): string | undefined {
  // A folder or a pipe named like a case file cannot be read as text (a pipe would block).
  if (!stats.isFile()) return `${label}: expected a file, found ${stats.isDirectory() ? 'a folder' : 'a special file'}`;
  const max = MAX_CASE_FILE_BYTES[file];
  if (stats.size > max) return `${label}: size: expected at most ${formatSize(max)}, found ${formatSize(stats.size)}`;
  return undefined;
}

const UNITS = [
  { name: 'GB', bytes: 1024 ** 3 },
  { name: 'MB', bytes: 1024 ** 2 },
  { name: 'KB', bytes: 1024 },
];

/** `256 KB`, `3.1 MB`; rounded up, so a file just over a limit never reads as the limit itself. */
function formatSize(bytes: number): string {
  const unit = UNITS.find((candidate) => bytes >= candidate.bytes);
  if (!unit) return `${bytes} bytes`;
  return `${Math.ceil((bytes * 10) / unit.bytes) / 10} ${unit.name}`;
}
