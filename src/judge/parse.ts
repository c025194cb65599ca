import { parse as parseYaml } from 'yaml';
import { JudgeError } from '../errors.js';
import { describeIssues } from '../format.js';
import { readLineFields } from './lineFields.js';
import { salvageAnswer } from './salvage.js';
import { JudgeAnswerSchema, type ReadAnswer } from './scoreSchema.js';

export interface ParsedJudgeAnswer {
  answer: ReadAnswer;
  /** The answer was not valid YAML or failed the schema, and was recovered field by field. */
  salvaged: boolean;
  /** Why the answer could not be taken as written, one line each: what a re-ask tells the judge. */
  problems: string[];
  /** What was wrong and what salvage did about it, one line each. */
  notes: string[];
}

const SOURCE = 'judge answer';

/**
 * Read the judge model's answer. A ```yaml fence is stripped; valid YAML that passes the
 * schema is taken as is. Otherwise the answer is salvaged: first from the YAML document's
 * fields when it parsed, else line by line from the text. Only when neither a `result` nor a
 * score can be found does this throw a JudgeError, with the start of the answer for diagnosis.
 */
export function parseJudgeAnswer(raw: string): ParsedJudgeAnswer {
  const text = stripFence(raw);
  if (text.trim() === '') throw new JudgeError('judge answer is empty: expected a YAML verdict, found no text');

  const problems: string[] = [];
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    problems.push(`${SOURCE} is not valid YAML: ${firstLine(error)}`);
  }

  if (isRecord(document)) {
    const parsed = JudgeAnswerSchema.safeParse(document);
    if (parsed.success) return { answer: parsed.data, salvaged: false, problems, notes: [] };
    problems.push(...describeIssues(parsed.error, SOURCE));
    const notes = [...problems];
    const answer = salvageAnswer(document, notes);
    if (answer) return { answer, salvaged: true, problems, notes };
  } else if (problems.length === 0) {
    problems.push(`${SOURCE} is not a YAML mapping (found ${document === null ? 'null' : typeof document})`);
  }

  const notes = [...problems];
  const answer = salvageAnswer(readLineFields(text), notes);
  if (answer) return { answer, salvaged: true, problems, notes };
  throw new JudgeError(
    `${SOURCE} could not be read: expected a line 'result: pass' or 'result: fail', found none ` +
      `(${problems[0] ?? 'no other problem found'}). Answer begins: "${excerpt(raw)}"`,
  );
}

const FENCE = /```[ \t]*(?:ya?ml)?[ \t]*\r?\n([\s\S]*?)```/gi;

/**
 * The YAML inside a fence, preferring the fence that holds a `result:` line (a model sometimes
 * shows a snippet before its answer). An unclosed opening fence, as in a truncated answer, is
 * dropped so the rest can still be read.
 */
function stripFence(raw: string): string {
  const fenced = [...raw.matchAll(FENCE)].map((match) => match[1] ?? '');
  if (fenced.length > 0) return fenced.find((block) => /^\s*result\s*:/m.test(block)) ?? fenced[0] ?? '';
  return raw.replace(/^\s*```[^\n]*\n/, '');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
