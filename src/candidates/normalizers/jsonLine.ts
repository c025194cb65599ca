/** Untyped access to one line of an agent's JSON stream: nothing here throws on bad input. */
export type JsonObject = Record<string, unknown>;

/** The line as a JSON object, or undefined for blank, non-JSON or non-object lines. */
export function parseJsonLine(line: string): JsonObject | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return asObject(value);
  } catch {
    return undefined;
  }
}

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Epoch milliseconds (opencode, Cursor) as an ISO timestamp. */
export function isoFromMs(value: unknown): string | undefined {
  const ms = asNumber(value);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** Text of a tool result or message content: a string, or blocks with `text`. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((block) => asString(asObject(block)?.text) ?? '')
    .filter(Boolean)
    .join('\n');
}
