import type { z } from 'zod';
import { FormatError } from './errors.js';

/**
 * Parse `data` with `schema` at a boundary (a file, a flag, a model answer, a database row).
 * On failure, raises a FormatError whose problems name the source, the field path, what was
 * expected and what was found.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown, source: string): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = describeIssues(parsed.error, source);
  throw new FormatError(problems.join('\n'), problems);
}

/** One line per zod issue: `<source>: <field.path>: <message>`. */
export function describeIssues(error: z.ZodError, source: string): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${source}: ${path}: ${issue.message}`;
  });
}
