import { createHash } from 'node:crypto';
import path from 'node:path';
import { FormatError } from '../errors.js';
import { parseEnv } from './parseEnv.js';
import { parseMeta } from './parseMeta.js';
import { parseRubric } from './parseRubric.js';
import { parseTask } from './parseTask.js';
import { readCaseFile } from './readCaseFile.js';
import { CASE_FILES } from './schema.js';
import type { CaseFile, EvalCase } from './schema.js';

export interface LoadOptions {
  /** Relative paths resolve against this folder, and problems name files relative to it. Default: process.cwd(). */
  cwd?: string;
}

/** The outcome of checking one case folder: the case when valid, and every problem found. */
export interface CaseCheck {
  /** The folder name, which a valid case's id equals. */
  id: string;
  /** Absolute path of the case folder. */
  dir: string;
  evalCase?: EvalCase;
  problems: string[];
}

/**
 * Load and validate the eval case in `dir`, throwing a FormatError that lists every problem
 * of all four files when it is not valid.
 */
export async function loadEvalCase(dir: string, options: LoadOptions = {}): Promise<EvalCase> {
  const { evalCase, problems } = await checkEvalCase(dir, options);
  if (evalCase) return evalCase;
  throw new FormatError(`eval case ${dir} has ${problems.length} problem(s):\n${problems.join('\n')}`, problems);
}

/** Validate the eval case in `dir`; never throws for bad content. All four files are checked. */
export async function checkEvalCase(dir: string, options: LoadOptions = {}): Promise<CaseCheck> {
  const cwd = options.cwd ?? process.cwd();
  const absolute = path.resolve(cwd, dir);
  const id = path.basename(absolute);
  const label = (file: CaseFile) => displayPath(path.join(absolute, file), cwd);

  const texts = await Promise.all(CASE_FILES.map((file) => readCaseFile(absolute, file, label(file))));
  const [metaText, taskText, rubricText, envText] = texts;
  const problems = texts.flatMap((text) => text.problems);

  const meta = metaText?.text === undefined ? undefined : parseMeta(metaText.text, label('meta.yaml'), id);
  const task = taskText?.text === undefined ? undefined : parseTask(taskText.text, label('task.md'));
  const rubric = rubricText?.text === undefined ? undefined : parseRubric(rubricText.text, label('rubric.md'));
  const env = envText?.text === undefined ? undefined : parseEnv(envText.text, label('env.yaml'));
  problems.push(...[meta, task, rubric, env].flatMap((parsed) => parsed?.problems ?? []));

  if (problems.length > 0 || !meta?.meta || !task?.task || !rubric?.rubric || !env?.env) {
    return { id, dir: absolute, problems };
  }
  const sha256 = hashCaseFiles(texts.map((text) => text.bytes ?? Buffer.alloc(0)));
  const evalCase = { id, dir: absolute, sha256, meta: meta.meta, task: task.task, rubric: rubric.rubric, env: env.env };
  return { id, dir: absolute, evalCase, problems };
}

/**
 * sha256 over the four files in CASE_FILES order, each framed by its name and byte length, so
 * moving text from one file to another changes the hash too.
 */
export function hashCaseFiles(contents: readonly Buffer[]): string {
  const hash = createHash('sha256');
  contents.forEach((content, index) => {
    hash.update(`${CASE_FILES[index]}\n${content.length}\n`);
    hash.update(content);
  });
  return hash.digest('hex');
}

/** A path relative to `cwd` when it lies inside it, otherwise absolute. */
export function displayPath(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
