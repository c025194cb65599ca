import type { Example, Prediction, Prompt } from '../format/schema.js';

/** What one prediction call produces: the prediction, and the prompt when one was built. */
export interface PredictionOutcome {
  prediction: Prediction;
  /** Stored as the example's `prompt` (Zed's shape), so scoring can see the editable region. */
  prompt?: Prompt;
}

/**
 * A source of edit predictions for an example whose `prompt_inputs` are filled. A provider
 * reports a malformed model reply as a prediction with `error` set; it throws only when the
 * call itself failed (an `LlmError`, which may be retried).
 */
export interface EditPredictionProvider {
  /** The `provider` string stored with each prediction. */
  readonly name: string;
  predict(example: Example): Promise<PredictionOutcome>;
}
