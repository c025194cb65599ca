import { createHash } from 'node:crypto';
import { SPEC_FIELDS } from './schema.js';
import type { ExampleSpec } from './schema.js';

/**
 * The stable identity of an example: a hash of its spec fields (the ExampleSpec ones) in a
 * canonical JSON form. The name is left out, so the same example read from another file (whose
 * stem becomes its name) keeps its key; pipeline state (`prompt_inputs`, predictions, scores)
 * is left out, so an example keeps its key through `ep predict` and `ep score`. `-o` resume and
 * the store's `ep_*` rows use this key.
 */
export function exampleKey(spec: ExampleSpec): string {
  const source = spec as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const field of SPEC_FIELDS) {
    if (field === 'name') continue;
    const value = source[field];
    if (value !== undefined && value !== null) fields[field] = value;
  }
  return `ep-${createHash('sha256').update(canonicalJson(fields)).digest('hex').slice(0, 32)}`;
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
