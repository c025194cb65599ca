import { extractCursorFromPatch, INLINE_CURSOR_MARKER } from '../format/cursorMarkers.js';
import { isCrlfThroughout } from '../format/lineEndings.js';
import { applyDiffWithHunkOffset } from '../replay/applyDiff.js';
import type { LlmClient, LlmRole } from '../../llm/port.js';
import type { ActualCursor, Example, Prediction } from '../format/schema.js';
import { byteToIndex, indexToByte, utf8Length } from '../format/rustStr.js';
import { unifiedDiff } from '../replay/unifiedDiff.js';
import { excerptLayout } from './excerptLayout.js';
import type { ExcerptLayout } from './excerptLayout.js';
import { parseModelReply } from './parseReply.js';
import { buildUserPrompt, EDITABLE_REGION_END, EDITABLE_REGION_START, SYSTEM_PROMPT } from './prompt.js';
import type { EditPredictionProvider } from './provider.js';

export interface OpenAiProviderOptions {
  llm: LlmClient;
  /** The model role whose endpoint and model the client uses (default `candidate`). */
  role?: LlmRole;
  /** The model name, recorded in the provider string `openai:<model>`. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
}

/**
 * Predictions from any OpenAI-compatible chat model through the `LlmClient` port: the model
 * rewrites the editable region of the cursor excerpt; the reply becomes `actual_patch` (a
 * unified diff of the excerpt with file line numbers), `actual_output` (the raw reply) and
 * `actual_cursor`.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): EditPredictionProvider {
  const name = options.model ? `openai:${options.model}` : 'openai';
  return {
    name,
    async predict(example: Example) {
      const layout = excerptLayout(example);
      const input = buildUserPrompt(example, layout);
      const response = await options.llm.chat({
        role: options.role ?? 'candidate',
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: input },
        ],
        temperature: options.temperature ?? 0,
        ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      });
      const output = response.content ?? '';
      const prompt = { input, expected_output: expectedOutput(example, layout), rejected_output: null, provider: name };
      return { prediction: predictionFromReply(output, layout, name), prompt };
    },
  };
}

/** Turn a raw reply into a prediction (malformed replies give a prediction with `error`). */
export function predictionFromReply(output: string, layout: ExcerptLayout, provider: string): Prediction {
  const reply = parseModelReply(output);
  if (reply.kind === 'malformed') return { actual_output: output, error: reply.reason, provider };
  if (reply.kind === 'noEdits') return { actual_patch: '', actual_output: output, provider };

  const { excerpt, editable } = layout;
  const region = adoptCrlf(reply.text, reply.cursor, excerpt);
  const predicted = excerpt.slice(0, editable.start) + region.text + excerpt.slice(editable.end);
  const patch = unifiedDiff(excerpt, predicted, { path: layout.cursorPath, lineOffset: layout.excerptStartRow });
  const prediction: Prediction = { actual_patch: patch, actual_output: output, provider };
  if (region.cursor !== undefined) prediction.actual_cursor = actualCursor(predicted, editable.start, region.cursor, layout);
  return prediction;
}

/**
 * A model shown a CRLF file tends to answer in LF. When every line of the excerpt ends in CRLF
 * and the reply has no CRLF at all, the reply's LFs become CRLFs (and its cursor moves by the
 * CRs added before it), so the patch holds the edit rather than a change of every line end.
 */
function adoptCrlf(text: string, cursor: number | undefined, excerpt: string): { text: string; cursor: number | undefined } {
  if (!isCrlfThroughout(excerpt) || text.includes('\r\n')) return { text, cursor };
  const before = cursor === undefined ? '' : text.slice(0, byteToIndex(text, cursor));
  const added = before.split('\n').length - 1;
  return { text: text.replace(/\n/g, '\r\n'), cursor: cursor === undefined ? undefined : cursor + added };
}

function actualCursor(predicted: string, regionStart: number, cursorInRegion: number, layout: ExcerptLayout): ActualCursor {
  const offset = indexToByte(predicted, regionStart) + cursorInRegion;
  const before = predicted.slice(0, byteToIndex(predicted, offset));
  const lineStart = before.lastIndexOf('\n') + 1;
  return {
    path: layout.cursorPath,
    row: layout.excerptStartRow + (before.split('\n').length - 1),
    column: utf8Length(before.slice(lineStart)),
    offset,
    editable_region_offset: cursorInRegion,
  };
}

/** The first expected patch applied to the editable region, with its cursor, in reply form. */
function expectedOutput(example: Example, layout: ExcerptLayout): string {
  const first = example.expected_patches[0];
  if (first === undefined) return '';
  const { patch, cursorOffset } = extractCursorFromPatch(first);
  const region = layout.excerpt.slice(layout.editable.start, layout.editable.end);
  try {
    const applied = applyDiffWithHunkOffset(patch, region);
    let text = applied.text;
    if (cursorOffset !== undefined) {
      const at = byteToIndex(text, (applied.firstHunkOffset ?? 0) + cursorOffset);
      text = text.slice(0, at) + INLINE_CURSOR_MARKER + text.slice(at);
    }
    return `${EDITABLE_REGION_START}${text}${EDITABLE_REGION_END}`;
  } catch {
    // The expected patch reaches outside the editable region: no reference output.
    return '';
  }
}
