/**
 * `--json` output uses the files' naming (snake_case keys), whatever the in-memory objects
 * call their fields. Keys already in snake_case (statuses, labels, names) stay as they are.
 */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), snakeCaseKeys(inner)]));
}

/** `meanOverallA` → `mean_overall_a`; `pass_rate` and `low` unchanged. */
export function snakeCase(key: string): string {
  return /^[a-z][A-Za-z0-9]*$/.test(key) ? key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z])/g, '$1_$2').toLowerCase() : key;
}
