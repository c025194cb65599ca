import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import * as z from 'zod';
import { describeIssues } from '../format.js';

/** A parsed YAML file that still knows on which line each field was written. */
export interface YamlFile {
  /** The plain data, or undefined when the text is not valid YAML (see problems). */
  data: unknown;
  problems: string[];
  /** Line (1-based) of the deepest part of `path` present in the file. */
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

/** Parse YAML text; syntax errors become `<file>:<line>: invalid YAML: ...` problems. */
export function parseYamlFile(text: string, file: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  const lineOf = (path: readonly PropertyKey[]) => findLine(doc.contents, path, lineAt);
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => `${file}:${lineAt(error.pos[0])}: invalid YAML: ${error.message}`);
    return { data: undefined, problems, lineOf };
  }
  try {
    return { data: doc.toJS(), problems: [], lineOf };
  } catch (error) {
    // toJS throws on YAML that parses but cannot be resolved, e.g. an alias to a missing anchor.
    return { data: undefined, problems: [`${file}: invalid YAML: ${(error as Error).message}`], lineOf };
  }
}

/**
 * Check parsed YAML data against a schema. Each problem names the file and line, the field
 * path, what was expected and what was found; unknown keys are listed one by one with the keys
 * that are allowed there.
 */
export function checkYamlShape<S extends z.ZodType>(
  schema: S,
  data: unknown,
  yaml: YamlFile,
  file: string,
): { value?: z.infer<S>; problems: string[] } {
  const parsed = schema.safeParse(data, { reportInput: true });
  if (parsed.success) return { value: parsed.data, problems: [] };
  const problems = parsed.error.issues.flatMap((issue) => splitUnknownKeys(issue, schema)).map((issue) => {
    const line = issue.path.length > 0 ? yaml.lineOf(issue.path) : undefined;
    const source = line === undefined ? file : `${file}:${line}`;
    return describeIssues(new z.ZodError([{ ...issue, message: withFound(issue) }]), source)[0] ?? source;
  });
  return { problems: sortByLine(problems, file) };
}

/** Problems of one file in line order (those without a line first), as an author reads the file. */
export function sortByLine(problems: readonly string[], file: string): string[] {
  const lineOf = (problem: string) => (problem.startsWith(`${file}:`) ? Number(/^:(\d+):/.exec(problem.slice(file.length))?.[1] ?? 0) : 0);
  return problems
    .map((problem, index) => ({ problem, index, line: lineOf(problem) }))
    .sort((a, b) => a.line - b.line || a.index - b.index)
    .map(({ problem }) => problem);
}

function splitUnknownKeys(issue: z.core.$ZodIssue, schema: z.ZodType): z.core.$ZodIssue[] {
  if (issue.code !== 'unrecognized_keys') return [issue];
  const known = Object.keys(shapeAt(schema, issue.path) ?? {});
  const expected = known.length > 0 ? `; expected one of: ${known.join(', ')}` : '';
  return issue.keys.map((key) => ({ ...issue, path: [...issue.path, key], message: `unknown key${expected}` }));
}

/** Reword zod's default messages in YAML terms and add the value found when they leave it out. */
function withFound(issue: z.core.$ZodIssue): string {
  const input: unknown = (issue as { input?: unknown }).input;
  const message = issue.message.replace(/^Invalid (?:input|option): /, '');
  if (issue.code === 'unrecognized_keys') return message;
  if (issue.code === 'invalid_type') {
    const expected = EXPECTED_NAMES[issue.expected] ?? issue.expected;
    return input === undefined ? `missing; expected ${expected}` : `expected ${expected}, found ${describeValue(input)}`;
  }
  if (input === undefined) return `missing; ${message}`;
  return /\bfound\b/.test(message) ? message : `${message}, found ${describeValue(input)}`;
}

const EXPECTED_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
};

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value === null) return 'nothing (null)';
  if (typeof value === 'object') return 'a mapping';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** The object shape a path points into, following arrays, defaults and optionals. */
function shapeAt(schema: z.ZodType, path: readonly PropertyKey[]): Record<string, unknown> | undefined {
  let current: z.ZodType | undefined = schema;
  for (const segment of [...path, undefined]) {
    while (current instanceof z.ZodDefault || current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    if (segment === undefined) break;
    if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else if (current instanceof z.ZodObject) current = current.shape[String(segment)] as z.ZodType | undefined;
    else return undefined;
  }
  return current instanceof z.ZodObject ? (current.shape as Record<string, unknown>) : undefined;
}

function findLine(node: unknown, path: readonly PropertyKey[], lineAt: (offset: number) => number): number | undefined {
  let line: number | undefined;
  let current = node;
  for (const segment of path) {
    if (isMap(current)) {
      const pair = current.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === segment);
      if (!pair) break;
      if (isScalar(pair.key) && pair.key.range) line = lineAt(pair.key.range[0]);
      current = pair.value;
    } else if (isSeq(current) && typeof segment === 'number') {
      current = current.items[segment];
      const range = (current as { range?: [number, number, number] } | undefined)?.range;
      if (!range) break;
      line = lineAt(range[0]);
    } else {
      break;
    }
  }
  return line;
}
