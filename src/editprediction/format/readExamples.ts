import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FormatError } from '../../errors.js';
import { parseOrThrow } from '../../format.js';
import { parseExampleMarkdown } from './parseExampleMarkdown.js';
import { ExampleSchema } from './schema.js';
import type { Example } from './schema.js';

export interface ReadExamplesOptions {
  /** What `-` reads: a stream (e.g. process.stdin) or its text. */
  stdin?: NodeJS.ReadableStream | string;
  /** Relative input paths resolve against this directory (default: process cwd). */
  cwd?: string;
}

/**
 * Read example inputs as `ep` does: `.md`, `.json` (one object), `.jsonl` (one
 * object per line) and `-` (stdin, JSONL), in the order given. An empty name becomes the
 * file stem, or `<stem>-<0-based line index>` for JSONL. Errors name the file (and line).
 */
export async function readExamples(inputs: string[], options: ReadExamplesOptions = {}): Promise<Example[]> {
  const examples: Example[] = [];
  for (const input of inputs) {
    if (input === '-') {
      examples.push(...parseExampleText(await readStdin(options.stdin), '-'));
      continue;
    }
    const file = path.resolve(options.cwd ?? process.cwd(), input);
    let content: string;
    try {
      content = await readFile(file, 'utf8');
    } catch (error) {
      throw new FormatError(`${input}: cannot read example file (${(error as NodeJS.ErrnoException).code ?? String(error)})`, undefined, { cause: error });
    }
    examples.push(...parseExampleText(content, input));
  }
  return examples;
}

/**
 * Parse the text of one input whose kind is given by `source`'s extension (`-` = JSONL).
 * Pure: no I/O, so tests and the store can use it directly.
 */
export function parseExampleText(content: string, source: string): Example[] {
  const extension = source === '-' ? '.jsonl' : path.extname(source);
  const stem = source === '-' ? '-' : path.basename(source, extension);
  switch (extension) {
    case '.md':
      return [withName(ExampleSchema.parse(parseExampleMarkdown(content, source)), stem)];
    case '.json':
      return [withName(parseOrThrow(ExampleSchema, parseJson(content, source), source), stem)];
    case '.jsonl':
      return jsonLines(content).map((line, index) => {
        const where = `${source}:${index + 1}`;
        if (line.trim() === '') throw new FormatError(`${where}: expected a JSON object, found an empty line`);
        return withName(parseOrThrow(ExampleSchema, parseJson(line, where), where), `${stem}-${index}`);
      });
    default:
      throw new FormatError(
        `${source}: unsupported example file ${extension === '' ? 'without an extension' : `extension "${extension}"`}; expected .md, .json, .jsonl, or - for JSONL on stdin`,
      );
  }
}

function withName(example: Example, fallback: string): Example {
  return example.name === '' ? { ...example, name: fallback } : example;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new FormatError(`${where}: not valid JSON (${(error as Error).message})`, undefined, { cause: error });
  }
}

/** Lines as Rust `str::lines` yields them (no final empty line after a trailing LF). */
function jsonLines(content: string): string[] {
  const lines = content.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function readStdin(stdin: NodeJS.ReadableStream | string | undefined): Promise<string> {
  if (stdin === undefined) throw new FormatError('-: no standard input was provided to read examples from');
  if (typeof stdin === 'string') return stdin;
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
