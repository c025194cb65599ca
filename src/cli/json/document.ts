import * as z from 'zod';
import type { CommandIo } from '../io.js';

/**
 * One `--json` document: an object whose first field is `schema_version`, the version of that
 * command's format (docs/json.md says when it changes), then the command's own fields.
 */
export function jsonDocument<V extends number, S extends z.ZodRawShape>(version: V, description: string, shape: S) {
  return z
    .object({
      schema_version: z.literal(version).describe(`the version of this format (${version}); it changes only when a field is removed, renamed or changes meaning`),
      ...shape,
    })
    .describe(description);
}

/**
 * Prints `value` as the command's JSON document, read through its schema first: what is printed
 * is exactly the documented fields (others dropped), and a value the schema refuses is a bug
 * found here rather than by a consumer.
 */
export function printJson<S extends z.ZodType>(io: CommandIo, schema: S, value: z.input<S>): void {
  io.out(JSON.stringify(schema.parse(value), null, 2));
}
