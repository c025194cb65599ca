import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CASE_ID_EXPECTED, CASE_ID_PATTERN, scaffoldEvalCase } from '../evalset/index.js';
import type { CommandIo } from '../cli/io.js';

export interface NewOptions {
  /** The id of the new case; also its folder name. */
  id: string;
  /** The bank folder to create it in; default `eval_sets` (relative to io.cwd). */
  dir?: string;
}

/**
 * `evalflow new <id> [--dir eval_sets]`: scaffold a case folder whose four files already pass
 * `evalflow validate`. Refuses an invalid id or an existing folder.
 */
export async function run(options: NewOptions, io: CommandIo): Promise<number> {
  if (!CASE_ID_PATTERN.test(options.id)) {
    io.err(`evalflow new: invalid eval case id ${JSON.stringify(options.id)}; expected ${CASE_ID_EXPECTED}`);
    return 1;
  }
  const bankDir = options.dir ?? 'eval_sets';
  const caseDir = path.join(bankDir, options.id);
  const absolute = path.resolve(io.cwd, caseDir);
  if (await exists(absolute)) {
    io.err(`evalflow new: ${caseDir} already exists; choose another id or remove that folder first`);
    return 1;
  }

  try {
    await mkdir(absolute, { recursive: true });
    for (const [file, content] of Object.entries(scaffoldEvalCase(options.id))) {
      // `wx` so that a folder created meanwhile by someone else is never overwritten.
      await writeFile(path.join(absolute, file), content, { flag: 'wx' });
      io.out(`created ${path.join(caseDir, file)}`);
    }
  } catch (error) {
    if (!(error instanceof Error && 'code' in error)) throw error;
    io.err(`evalflow new: cannot create ${caseDir}: ${error.message}`);
    return 1;
  }
  io.out(`next: replace the TODO text, then run \`evalflow validate ${caseDir}\``);
  return 0;
}

async function exists(target: string): Promise<boolean> {
  try {
    await stat(target);
    return true;
  } catch {
    return false;
  }
}
