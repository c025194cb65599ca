import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exampleToJsonLine } from './exampleToJson.js';
import { exampleToMarkdown } from './exampleToMarkdown.js';
import type { Example } from './schema.js';

/** Examples as JSONL text, one line each, every line ending with LF. */
export function formatJsonl(examples: Example[]): string {
  return examples.map((example) => `${exampleToJsonLine(example)}\n`).join('');
}

/**
 * Write examples as JSONL. `ep -o` appends; `--in-place` replaces, so both are offered.
 */
export async function writeJsonl(file: string, examples: Example[], mode: 'append' | 'replace'): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  if (mode === 'append') await appendFile(file, formatJsonl(examples), 'utf8');
  else await writeFile(file, formatJsonl(examples), 'utf8');
}

/** An example's name as a file name: the characters Zed's `ExampleSpec::filename` replaces become `-`. */
export function sanitizedFileName(name: string): string {
  return name.replace(/[ :~^?*[\\@{/<>|"]/g, '-');
}

/** The `.md` file name of an example (`ep --markdown`): its sanitized name. */
export function markdownFileName(example: Example): string {
  return `${sanitizedFileName(example.name)}.md`;
}

/**
 * Write one `<sanitized name>.md` per example into `dir` (spec fields only, as `ep --markdown`).
 * Returns the paths written.
 */
export async function writeMarkdownDir(dir: string, examples: Example[]): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const example of examples) {
    const file = path.join(dir, markdownFileName(example));
    await writeFile(file, exampleToMarkdown(example), 'utf8');
    written.push(file);
  }
  return written;
}
