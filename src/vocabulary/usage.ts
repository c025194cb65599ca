import * as z from 'zod';

/** Token usage of one model call or one candidate turn. */
export const UsageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_tokens: z.number().int().nonnegative().optional(),
  cache_write_tokens: z.number().int().nonnegative().optional(),
  reasoning_tokens: z.number().int().nonnegative().optional(),
  cost_usd: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'cost_usd'] as const;

/** Sum of two usages (opencode steps, builtin model calls). */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  const sum: Record<string, number> = {};
  for (const field of USAGE_FIELDS) {
    const value = (a[field] ?? 0) + (b[field] ?? 0);
    if (value || field === 'input_tokens' || field === 'output_tokens') sum[field] = field === 'cost_usd' ? roundCost(value) : value;
  }
  return sum as Usage;
}

/** Costs are sums of small floats; keep them readable and stable. */
export function roundCost(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}
