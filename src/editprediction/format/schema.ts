import * as z from 'zod';

/**
 * The example format of Zed's `ep` CLI as JSON (*Example fields* in docs/edit-prediction.md):
 * the ExampleSpec fields at the
 * top level, then the pipeline state (`prompt_inputs`, `prompt`, `predictions`, `score`,
 * `qa`). Field names are Zed's snake_case; objects are loose so fields evalflow does not know
 * (newer or older Zed versions) survive a read → write round trip. `null` is accepted wherever
 * Zed has an `Option`.
 */

const count = z.number().int().min(0);

/**
 * A Rust `Option` that serde omits when `None`: `null` and absence both read as undefined,
 * so a value read from Zed's JSON and one read back from evalflow's compare equal.
 */
function option<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined).optional();
}
/** Rust `Range<usize>` as serde writes it. */
export const ByteRangeSchema = z.looseObject({ start: count, end: count });
export type ByteRange = z.infer<typeof ByteRangeSchema>;

export const RecentFileSchema = z.looseObject({
  path: z.string(),
  cursor_position: option(count).describe('Byte offset of the cursor in that file, if known.'),
});
export type RecentFile = z.infer<typeof RecentFileSchema>;

export const TelemetrySchema = z.looseObject({
  request_id: z.string(),
  device_id: z.string(),
  time: z.string(),
  rejection_reason: z.string(),
  was_shown: z.boolean(),
});

export const HumanFeedbackSchema = z.looseObject({ message: z.string() });

/** The fields of Zed's `ExampleSpec`, in the order serde writes them. */
export const exampleSpecShape = {
  name: z.string().default('').describe('Empty in most files; the reader substitutes the file stem.'),
  repository_url: z.string().describe('https, git@host:owner/repo, a local path or a file:// URL.'),
  revision: z.string().describe('Any git revision, e.g. a sha or sha~1.'),
  tags: z.array(z.string()).default([]),
  reasoning: option(z.string()),
  uncommitted_diff: z.string().default(''),
  recently_opened_files: z.array(RecentFileSchema).default([]),
  recently_viewed_files: z.array(RecentFileSchema).default([]),
  uncommitted_diff_contains_edit_history: z.boolean().default(false),
  cursor_path: z.string(),
  cursor_position: z.string().describe('Excerpt of the cursor file with a cursor marker: an inline <|user_cursor|>, or a [CURSOR_POSITION] line below the cursor line.'),
  edit_history: z.string().describe('Unified diff(s), possibly with accepted-prediction markers.'),
  expected_patches: z.array(z.string()).describe('Alternative acceptable patches, may encode a cursor.'),
  rejected_patch: option(z.string()),
  telemetry: option(TelemetrySchema),
  human_feedback: z.array(HumanFeedbackSchema).default([]),
  rating: option(z.string()),
};

export const ExampleSpecSchema = z.looseObject(exampleSpecShape);
export type ExampleSpec = z.infer<typeof ExampleSpecSchema>;

/** A zeta_prompt edit-history event (internally tagged, as serde writes it). */
export const EditEventSchema = z.looseObject({
  event: z.literal('BufferChange'),
  path: z.string(),
  old_path: z.string(),
  diff: z.string().describe('Hunks only (no file headers), with file line numbers.'),
  predicted: z.boolean().default(false).describe('The edit was an accepted prediction.'),
  in_open_source_repo: z.boolean().default(false),
});
export type EditEvent = z.infer<typeof EditEventSchema>;

/**
 * `prompt_inputs`: the latest Zed shape (`ZetaPromptInput`). Everything is optional here
 * because older files carry the mid-generation shape (`content`, `cursor_row`, …), which is
 * kept as unknown fields; scoring checks for `cursor_excerpt` where it needs it.
 */
export const PromptInputsSchema = z.looseObject({
  cursor_path: z.string().optional(),
  cursor_excerpt: z.string().optional(),
  cursor_offset_in_excerpt: count.optional(),
  excerpt_start_row: count.nullish(),
  events: z.array(EditEventSchema).optional(),
  related_files: z.array(z.unknown()).nullish(),
  active_buffer_diagnostics: z.array(z.unknown()).optional(),
  excerpt_ranges: z.record(z.string(), ByteRangeSchema.nullable()).optional(),
  syntax_ranges: z.array(ByteRangeSchema).nullish(),
  in_open_source_repo: z.boolean().optional(),
  can_collect_data: z.boolean().optional(),
  repo_url: z.string().nullish(),
});
export type PromptInputs = z.infer<typeof PromptInputsSchema>;

export const PromptSchema = z.looseObject({
  input: z.string(),
  expected_output: z.string(),
  rejected_output: z.string().nullish(),
  provider: z.string(),
});
export type Prompt = z.infer<typeof PromptSchema>;

export const ActualCursorSchema = z.looseObject({
  path: z.string(),
  row: count.describe('0-based row in the cursor file.'),
  column: count.describe('Byte column in that row.'),
  offset: count.describe('Byte offset in the predicted cursor excerpt.'),
  editable_region_offset: option(count).describe('Byte offset from the start of the editable region.'),
});
export type ActualCursor = z.infer<typeof ActualCursorSchema>;

export const PredictionSchema = z.looseObject({
  actual_patch: option(z.string()),
  actual_output: z
    .string()
    .nullable()
    .default('')
    .transform((value) => value ?? ''),
  actual_cursor: option(ActualCursorSchema),
  error: option(z.string()),
  provider: z.string(),
  cumulative_logprob: option(z.number()),
  avg_logprob: option(z.number()),
});
export type Prediction = z.infer<typeof PredictionSchema>;

/** Zed's `PredictionScore` of its current metrics (serde defaults where Zed has them). */
export const PredictionScoreSchema = z.looseObject({
  delta_chr_f: z.number(),
  delta_chr_f_true_positives: count.default(0),
  delta_chr_f_false_positives: count.default(0),
  delta_chr_f_false_negatives: count.default(0),
  delta_chr_f_precision: z.number().default(0),
  delta_chr_f_recall: z.number().default(0),
  delta_chr_f_beta: z.number().default(0),
  braces_disbalance: count,
  exact_lines_tp: count.default(0),
  exact_lines_fp: count.default(0),
  exact_lines_fn: count.default(0),
  reversal_ratio: z.number().default(0),
  cursor_distance: option(count),
  cursor_exact_match: option(z.boolean()),
  wrong_editable_region: z.boolean().nullable().default(null).describe('serde writes this Option always, as null when unknown.'),
  has_isolated_whitespace_changes: z.boolean().default(false),
  inserted_tokens: count.default(0),
  deleted_tokens: count.default(0),
  kept_rate: option(z.number()),
  recall_rate: option(z.number()),
  kept_chars: option(count),
  correctly_deleted_chars: option(count),
  discarded_chars: option(count),
  cumulative_logprob: option(z.number()),
  avg_logprob: option(z.number()),
});
export type PredictionScore = z.infer<typeof PredictionScoreSchema>;

export const QaResultSchema = z.looseObject({
  reasoning: option(z.string()),
  reverts_edits: z.boolean().nullish(),
  confidence: z.number().int().nullish(),
  response: z.string().nullish(),
  error: z.string().nullish(),
});

/** One example: one JSONL line of Zed's `ep`. */
export const ExampleSchema = z.looseObject({
  ...exampleSpecShape,
  prompt_inputs: PromptInputsSchema.nullish(),
  prompt: PromptSchema.nullish(),
  predictions: z.array(PredictionSchema).default([]),
  score: z.array(PredictionScoreSchema).default([]),
  qa: z.array(QaResultSchema.nullable()).default([]),
});
export type Example = z.infer<typeof ExampleSchema>;

/** Spec field names in serde order; the writer emits these first, then pipeline state. */
export const SPEC_FIELDS = Object.keys(exampleSpecShape) as Array<keyof typeof exampleSpecShape>;
export const STATE_FIELDS = ['prompt_inputs', 'prompt', 'predictions', 'score', 'qa'] as const;
