import * as z from 'zod';

/** Rows of the edit-prediction track (`ep_examples`, `ep_predictions`, `ep_scores`). */

const Timestamp = z.iso.datetime({ offset: true });
const JsonObject = z.record(z.string(), z.unknown());

export const EpExampleSchema = z.object({
  example_key: z.string().min(1).describe('hash of the spec; computed by src/editprediction'),
  name: z.string(),
  repository_url: z.string(),
  revision: z.string(),
  spec: JsonObject,
  created_at: Timestamp,
});
export type EpExample = z.infer<typeof EpExampleSchema>;
export const EpExampleInputSchema = EpExampleSchema.omit({ created_at: true });
export type EpExampleInput = z.input<typeof EpExampleInputSchema>;

const PredictionKey = {
  batch_id: z.string().min(1),
  example_key: z.string().min(1),
  provider: z.string().min(1),
  repetition: z.number().int().nonnegative(),
};

export const EpPredictionSchema = z.object({ ...PredictionKey, prediction: JsonObject, created_at: Timestamp });
export type EpPrediction = z.infer<typeof EpPredictionSchema>;
export const EpPredictionInputSchema = EpPredictionSchema.omit({ created_at: true });
export type EpPredictionInput = z.input<typeof EpPredictionInputSchema>;

export const EpScoreSchema = z.object({ ...PredictionKey, score: JsonObject, created_at: Timestamp });
export type EpScore = z.infer<typeof EpScoreSchema>;
export const EpScoreInputSchema = EpScoreSchema.omit({ created_at: true });
export type EpScoreInput = z.input<typeof EpScoreInputSchema>;
