import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exampleToJson, exampleToJsonLine } from '../format/exampleToJson.js';
import { sanitizedFileName } from '../format/writeExamples.js';
import type { Example } from '../format/schema.js';

/**
 * What `ep` leaves behind for a failed example (unless `--failed skip-no-files`):
 * `<dir>/failed/<name>.json` (the example in its partial state, pretty JSON),
 * `<dir>/failed/<name>_err.txt` (the error) and a line in `<dir>/failed.jsonl`. Returns the
 * JSON file's path.
 */
export async function writeFailureArtifacts(dir: string, example: Example, error: string): Promise<string> {
  const failedDir = path.join(dir, 'failed');
  await mkdir(failedDir, { recursive: true });
  const base = sanitizedFileName(example.name);
  const file = path.join(failedDir, `${base}.json`);
  await writeFile(file, `${JSON.stringify(exampleToJson(example), null, 2)}\n`, 'utf8');
  await writeFile(path.join(failedDir, `${base}_err.txt`), `${error}\n`, 'utf8');
  await appendFile(path.join(dir, 'failed.jsonl'), `${exampleToJsonLine(example)}\n`, 'utf8');
  return file;
}
