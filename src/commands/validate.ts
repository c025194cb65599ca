import path from 'node:path';
import { FormatError, isEvalflowError } from '../errors.js';
import { checkEvalBank } from '../evalset/index.js';
import { listCaseFiles } from '../evalset/casePack.js';
import type { CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { ValidateJson } from '../cli/json/validate.js';

export interface ValidateOptions {
  /** Bank folders or case folders; default `eval_sets` (relative to io.cwd). */
  paths?: string[];
  /** Check only these case ids. */
  only?: string[];
  /** Print the checks as JSON (docs/json.md) instead of lines. */
  json?: boolean;
}

/**
 * `evalflow validate [PATH...]`: check every eval case without running anything. Prints each
 * problem on its own line, then a summary; exits 1 when there is any problem.
 */
export async function run(options: ValidateOptions, io: CommandIo): Promise<number> {
  const paths = options.paths && options.paths.length > 0 ? options.paths : ['eval_sets'];
  try {
    const bank = await checkEvalBank(paths, { cwd: io.cwd, ...(options.only ? { only: options.only } : {}) });
    // `evalflow run` packs each case to send it to the worker hosts: a folder over the bounds is refused there, so it is a problem here (sizes only, no file is read).
    for (const check of bank.cases) {
      if (check.problems.length > 0) continue;
      await listCaseFiles(check.dir, path.relative(io.cwd, check.dir) || '.').catch((error: unknown) => {
        if (!(error instanceof FormatError)) throw error;
        check.problems.push(error.message);
      });
    }
    const problems = [...bank.problems, ...bank.cases.flatMap((check) => check.problems)];
    const withProblems = bank.cases.filter((check) => check.problems.length > 0).length;
    if (options.json) {
      const cases = bank.cases.map((check) => ({ id: check.id, dir: check.dir, valid: check.problems.length === 0, problems: check.problems }));
      printJson(io, ValidateJson, { schema_version: 1, cases, bank_problems: bank.problems, checked: bank.cases.length, valid: bank.cases.length - withProblems, problems: problems.length });
      return problems.length > 0 ? 1 : 0;
    }
    for (const problem of problems) io.out(problem);
    io.out(summaryLine(bank.cases.length, withProblems, problems.length));
    return problems.length > 0 ? 1 : 0;
  } catch (error) {
    // Bad input is reported by checkEvalBank; what reaches here is the file system failing.
    if (!isEvalflowError(error) && !(error instanceof Error && 'code' in error)) throw error;
    io.err(`evalflow validate: ${error.message}`);
    return 1;
  }
}

/** `4 eval cases checked: 2 valid, 2 with problems (5 problems)` */
export function summaryLine(checked: number, withProblems: number, problems: number): string {
  const parts = [`${checked - withProblems} valid`];
  if (withProblems > 0) parts.push(`${withProblems} with problems`);
  const caseProblems = withProblems > 0 ? ` (${plural(problems, 'problem')})` : problems > 0 ? `; ${plural(problems, 'problem')}` : '';
  return `${plural(checked, 'eval case')} checked: ${parts.join(', ')}${caseProblems}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
