import { roundCost as round, USAGE_FIELDS as FIELDS, type Usage } from '../../vocabulary/usage.js';

/**
 * evalflow's one usage convention, whatever the agent reports: `input_tokens` counts every
 * prompt token including cache reads and writes (OpenAI's convention), `output_tokens` counts
 * every generated token including reasoning; the cache and reasoning fields are subsets.
 */
export function makeUsage(parts: {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
  costUsd?: number;
}): Usage {
  return {
    input_tokens: whole(parts.input),
    output_tokens: whole(parts.output),
    ...(parts.cacheRead ? { cache_read_tokens: whole(parts.cacheRead) } : {}),
    ...(parts.cacheWrite ? { cache_write_tokens: whole(parts.cacheWrite) } : {}),
    ...(parts.reasoning ? { reasoning_tokens: whole(parts.reasoning) } : {}),
    ...(parts.costUsd ? { cost_usd: Math.max(0, parts.costUsd) } : {}),
  };
}

/**
 * This turn's usage from cumulative counters: `current − previous`. When a counter went down
 * (a new session behind the same id), the counters restarted, so `current` is this turn's.
 */
export function differenceUsage(current: Usage, previous: Usage | undefined): Usage {
  if (!previous) return current;
  if (FIELDS.some((field) => (current[field] ?? 0) < (previous[field] ?? 0))) return current;
  const diff: Record<string, number> = {};
  for (const field of FIELDS) {
    const value = (current[field] ?? 0) - (previous[field] ?? 0);
    if (value || field === 'input_tokens' || field === 'output_tokens') diff[field] = field === 'cost_usd' ? round(value) : value;
  }
  return diff as Usage;
}

/** A number from an untyped stream field, or 0. */
export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function whole(value: number): number {
  return Math.max(0, Math.round(value));
}
