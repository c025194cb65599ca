import { expect } from 'vitest';
import type * as z from 'zod';
import { memoryIo } from '../../../src/cli/io.js';

/** Runs a command twice on the same store, as a table and with --json; returns both outputs. */
export async function bothForms<O extends object>(
  command: (options: O, io: ReturnType<typeof memoryIo>) => Promise<number>,
  options: O,
  cwd: string,
): Promise<{ table: string[]; json: unknown; code: number; jsonStderr: string[] }> {
  const tableIo = memoryIo(cwd, {});
  const code = await command(options, tableIo);
  const jsonIo = memoryIo(cwd, {});
  expect(await command({ ...options, json: true }, jsonIo)).toBe(code);
  return { table: tableIo.stdout, json: JSON.parse(jsonIo.stdout.join('\n')), code, jsonStderr: jsonIo.stderr };
}

/**
 * What every --json document must be: its schema parses it unchanged (nothing printed beyond
 * the documented fields), schema_version is the first key and an integer, and no key is camelCase.
 */
export function expectDocument<S extends z.ZodType>(schema: S, json: unknown): z.output<S> {
  const parsed = schema.parse(json);
  expect(parsed).toEqual(json);
  expect(Object.keys(json as object)[0]).toBe('schema_version');
  expect(Number.isInteger((json as { schema_version: unknown }).schema_version)).toBe(true);
  expect(camelCaseKeys(json)).toEqual([]);
  return parsed;
}

function camelCaseKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => camelCaseKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [...(/[A-Z]/.test(key) ? [`${path}.${key}`] : []), ...camelCaseKeys(inner, `${path}.${key}`)]);
}

/** The cells of a plain-text table row (columns are two or more spaces apart). */
export function cells(line: string): string[] {
  return line.split(/\s{2,}/);
}
