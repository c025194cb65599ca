import * as z from 'zod';

/** Rows of the edit-prediction track (`ep_examples`, `ep_predictions`, `ep_scores`). */

const Timestamp = z.iso.datetime({ offset: true });
const JsonObject = z.record(z.string(), z.unknown());

export const EpExampleRowSchema = z.object({
  example_key: z.string().min(1).describe('hash of the spec; computed by src/editprediction'),
  name: z.string(),
  repository_url: z.string(),
  revision: z.string(),
  spec: JsonObject,
  created_at: Timestamp,
});
export type EpExample = z.infer<typeof EpExampleRowSchema>;
export const EpExampleRowInputSchema = EpExampleRowSchema.omit({ created_at: true });
export type EpExampleRowInput = z.input<typeof EpExampleRowInputSchema>;

const PredictionKey = {
  batch_id: z.string().min(1),
  example_key: z.string().min(1),
  provider: z.string().min(1),
  repetition: z.number().int().nonnegative(),
};

export const EpPredictionRowSchema = z.object({ ...PredictionKey, prediction: JsonObject, created_at: Timestamp });
export type EpPrediction = z.infer<typeof EpPredictionRowSchema>;
export const EpPredictionRowInputSchema = EpPredictionRowSchema.omit({ created_at: true });
export type EpPredictionRowInput = z.input<typeof EpPredictionRowInputSchema>;

export const EpScoreRowSchema = z.object({ ...PredictionKey, score: JsonObject, created_at: Timestamp });
export type EpScore = z.infer<typeof EpScoreRowSchema>;
export const EpScoreRowInputSchema = EpScoreRowSchema.omit({ created_at: true });
export type EpScoreRowInput = z.input<typeof EpScoreRowInputSchema>;
