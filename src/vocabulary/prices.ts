import * as z from 'zod';

/** What one model costs, in US dollars per million tokens; the cache prices default to the input price. */
export const ModelPriceSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cache_read: z.number().nonnegative().optional(),
    cache_write: z.number().nonnegative().optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** `prices:` in evalflow.config.yaml: model name → its price. */
export const PricesSchema = z.record(z.string(), ModelPriceSchema);
export type Prices = z.infer<typeof PricesSchema>;
