import type * as z from 'zod';
import { BadRequestError } from '../../errors.js';

/** A query string read by its schema; a bad value is a 400 naming the parameter and what it takes. */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = issue.path.map(String).join('.');
  const value = key in query ? `'${query[key]}'` : 'nothing';
  throw new BadRequestError(`query parameter ${key}: ${describeIssue(issue)}, found ${value}`);
}

/** An issue in words a user reads (no schema internals). */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big') return `expected ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`;
  if (issue.code === 'too_small') return `expected ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`;
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map(String).join(', ')}`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'expected a whole number';
  return issue.code === 'invalid_type' ? `expected a ${issue.expected}` : 'expected a valid value';
}

/** A path segment, percent-decoded; a malformed escape (`%zz`) is a bad request, not a crash. */
export function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new BadRequestError(`path segment '${part}' has a malformed percent escape`);
  }
}
