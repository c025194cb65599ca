import type { RoleTokens } from '../store/index.js';
import type { Usage } from '../vocabulary/usage.js';
import type { Prices } from '../vocabulary/prices.js';

export interface RoleCost {
  examiner: number | null;
  candidate: number | null;
  judge: number | null;
  /** Null when any role's cost is unknown: a partial sum would read as the whole. */
  total: number | null;
}

/**
 * What one run cost, per role: its tokens at its models' prices. Unknown (null), never 0,
 * where the usage is unknown or the model has no price; a role that used no tokens cost 0.
 */
export function runCost(tokens: RoleTokens | null, models: { examiner?: string; candidate?: string; judge?: string }, prices: Prices): RoleCost {
  const cost = (usage: Usage | null | undefined, model: string | undefined) => {
    if (!usage) return null;
    if (usage.input_tokens === 0 && usage.output_tokens === 0) return 0;
    const price = model ? prices[model] : undefined;
    if (!price) return null;
    return (
      (usage.input_tokens * price.input +
        usage.output_tokens * price.output +
        (usage.cache_read_tokens ?? 0) * (price.cache_read ?? price.input) +
        (usage.cache_write_tokens ?? 0) * (price.cache_write ?? price.input)) /
      1_000_000
    );
  };
  const examiner = cost(tokens?.examiner, models.examiner);
  const candidate = cost(tokens?.candidate, models.candidate);
  const judge = cost(tokens?.judge, models.judge);
  const total = examiner === null || candidate === null || judge === null ? null : examiner + candidate + judge;
  return { examiner, candidate, judge, total };
}
