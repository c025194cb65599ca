import { rename } from 'node:fs/promises';
import path from 'node:path';
import { formatJsonl, writeJsonl, writeMarkdownDir } from '../../editprediction/format/writeExamples.js';
import type { Example } from '../../editprediction/format/schema.js';
import type { EpOptions } from './options.js';
import type { CommandIo } from '../../cli/io.js';

/** `-o` appends JSONL (or writes .md files with --markdown), `--in-place` replaces the input, else stdout. */
export async function writeExamples(examples: Example[], options: EpOptions, output: string | undefined, io: CommandIo): Promise<void> {
  if (options.inPlace) {
    const input = path.resolve(io.cwd, (options.inputs ?? [])[0] as string);
    const temporary = path.join(path.dirname(input), `${path.basename(input, path.extname(input))}.jsonl.tmp`);
    await writeJsonl(temporary, examples, 'replace');
    await rename(temporary, input);
    return;
  }
  if (output && options.markdown) {
    await writeMarkdownDir(output, examples);
    return;
  }
  if (output) {
    await writeJsonl(output, examples, 'append');
    return;
  }
  for (const line of formatJsonl(examples).split('\n')) if (line !== '') io.out(line);
}
