import { readFile, writeFile } from 'node:fs/promises';
import { FormatError } from '../../errors.js';
import { parseOrThrow } from '../../format.js';
import { exampleKey } from '../format/exampleKey.js';
import { ExampleSchema } from '../format/schema.js';

/**
 * `-o` resume, as Zed's `ep`: keep the lines of an existing JSONL output whose example key is one
 * of `wanted` (the file is rewritten with just those, in their order) and return those keys,
 * so the caller skips their examples. A missing file resumes nothing. A line that is not an
 * example is an error naming the file and line: evalflow never drops output it cannot read.
 */
export async function resumeOutput(file: string, wanted: ReadonlySet<string>): Promise<Set<string>> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw new FormatError(`${file}: cannot read the output file to resume from (${(error as NodeJS.ErrnoException).code ?? String(error)})`, undefined, { cause: error });
  }
  const found = new Set<string>();
  const kept: string[] = [];
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line) as unknown;
    } catch (error) {
      throw new FormatError(`${where}: expected one example as JSON per line (the -o output of evalflow ep), found text that is not JSON (${(error as Error).message})`, undefined, { cause: error });
    }
    const key = exampleKey(parseOrThrow(ExampleSchema, parsed, where));
    if (!wanted.has(key)) return;
    found.add(key);
    kept.push(line);
  });
  await writeFile(file, kept.map((line) => `${line}\n`).join(''), 'utf8');
  return found;
}
