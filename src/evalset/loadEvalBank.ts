import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkEvalCase, displayPath } from './loadEvalCase.js';
import type { CaseCheck, LoadOptions } from './loadEvalCase.js';
import { CASE_FILES } from './schema.js';
import type { EvalCase } from './schema.js';

export interface BankOptions extends LoadOptions {
  /** Keep only the cases with these ids; an unknown id is a problem listing the known ones. */
  only?: readonly string[];
}

export interface BankCheck {
  /** Every selected case folder, sorted by id, valid or not. */
  cases: CaseCheck[];
  /** Problems that belong to no single case: missing folders, duplicate or unknown ids. */
  problems: string[];
}

/**
 * Load the eval cases under `paths`, each either a bank folder (whose sub-folders are cases)
 * or one case folder. Returns the valid cases sorted by id and every problem found, so a
 * caller can refuse to start when `problems` is not empty.
 */
export async function loadEvalBank(
  paths: readonly string[],
  options: BankOptions = {},
): Promise<{ cases: EvalCase[]; problems: string[] }> {
  const bank = await checkEvalBank(paths, options);
  return {
    cases: bank.cases.flatMap((check) => (check.evalCase ? [check.evalCase] : [])),
    problems: [...bank.problems, ...bank.cases.flatMap((check) => check.problems)],
  };
}

/** Find, select and check the cases under `paths`; never throws for bad content. */
export async function checkEvalBank(paths: readonly string[], options: BankOptions = {}): Promise<BankCheck> {
  const cwd = options.cwd ?? process.cwd();
  const problems: string[] = [];
  const dirsById = new Map<string, string>();

  for (const given of paths) {
    const found = await findCaseDirs(path.resolve(cwd, given), cwd);
    problems.push(...found.problems);
    for (const dir of found.dirs) {
      const id = path.basename(dir);
      const first = dirsById.get(id);
      if (first === undefined) dirsById.set(id, dir);
      else if (first !== dir) {
        problems.push(`duplicate eval case id ${JSON.stringify(id)}: ${displayPath(first, cwd)} and ${displayPath(dir, cwd)}`);
      }
    }
  }

  const known = [...dirsById.keys()].sort(compareIds);
  const only = options.only && options.only.length > 0 ? options.only : undefined;
  for (const id of only ?? []) {
    if (!dirsById.has(id)) {
      const list = known.length > 0 ? known.join(', ') : '(none)';
      problems.push(`--only: unknown eval case id ${JSON.stringify(id)}; known ids: ${list}`);
    }
  }
  const selected = known.filter((id) => !only || only.includes(id));
  const cases = await Promise.all(selected.map((id) => checkEvalCase(dirsById.get(id) ?? id, { cwd })));
  return { cases, problems };
}

/** Code-point order, so the order is the same on every machine and locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function findCaseDirs(dir: string, cwd: string): Promise<{ dirs: string[]; problems: string[] }> {
  const label = displayPath(dir, cwd);
  const kind = await kindOf(dir);
  if (kind === 'missing') return { dirs: [], problems: [`${label}: no such folder; expected an eval bank or an eval case folder`] };
  if (kind === 'file') return { dirs: [], problems: [`${label}: expected a folder (an eval bank or one eval case), found a file`] };

  const entries = await readdir(dir);
  if (entries.some((entry) => (CASE_FILES as readonly string[]).includes(entry))) return { dirs: [dir], problems: [] };

  const dirs: string[] = [];
  for (const entry of entries.filter((name) => !name.startsWith('.')).sort(compareIds)) {
    if ((await kindOf(path.join(dir, entry))) === 'folder') dirs.push(path.join(dir, entry));
  }
  if (dirs.length > 0) return { dirs, problems: [] };
  return { dirs, problems: [`${label}: no eval cases found; expected case folders holding ${CASE_FILES.join(', ')}`] };
}

async function kindOf(target: string): Promise<'folder' | 'file' | 'missing'> {
  try {
    return (await stat(target)).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
