import { FormatError } from '../../errors.js';
import { computeExcerptRanges } from './excerptRanges.js';
import type { ByteRange, Example, PromptInputs } from '../format/schema.js';
import { byteToIndex } from '../format/rustStr.js';

/** Which of Zed's precomputed ranges the openai provider uses (Zed's teacher default size). */
const EDITABLE_KEY = 'editable_180';
const CONTEXT_KEY = 'editable_180_context_350';

/** The parts of the cursor excerpt a region-rewriting prompt is built from (UTF-16 indices). */
export interface ExcerptLayout {
  cursorPath: string;
  excerpt: string;
  excerptStartRow: number;
  cursor: number;
  editable: { start: number; end: number };
  context: { start: number; end: number };
}

/** The excerpt, cursor and editable/context ranges of an example with prompt inputs. */
export function excerptLayout(example: Example): ExcerptLayout {
  const inputs = requirePromptInputs(example);
  const excerpt = inputs.cursor_excerpt as string;
  const cursorBytes = inputs.cursor_offset_in_excerpt ?? 0;
  const ranges = inputs.excerpt_ranges ?? computeExcerptRanges(excerpt, cursorBytes);
  const computed = ranges[EDITABLE_KEY] && ranges[CONTEXT_KEY] ? ranges : computeExcerptRanges(excerpt, cursorBytes);
  const toIndex = (range: ByteRange) => ({ start: byteToIndex(excerpt, range.start), end: byteToIndex(excerpt, range.end) });
  return {
    cursorPath: inputs.cursor_path ?? example.cursor_path,
    excerpt,
    excerptStartRow: inputs.excerpt_start_row ?? 0,
    cursor: byteToIndex(excerpt, cursorBytes),
    editable: toIndex(computed[EDITABLE_KEY] as ByteRange),
    context: toIndex(computed[CONTEXT_KEY] as ByteRange),
  };
}

function requirePromptInputs(example: Example): PromptInputs {
  const inputs = example.prompt_inputs;
  if (!inputs || inputs.cursor_excerpt === undefined) {
    throw new FormatError(`${example.name}: prompt_inputs.cursor_excerpt is required to predict; load the project first (replay the example)`);
  }
  return inputs;
}
