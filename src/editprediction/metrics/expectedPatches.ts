import { FormatError } from '../../errors.js';
import { applyDiffToString, applyDiffWithHunkOffset } from '../replay/applyDiff.js';
import type { PatchCursor } from '../format/cursorMarkers.js';

/** An expected patch ready for scoring: its clean text, the text it produces, its cursor. */
export interface PreparedExpectedPatch {
  patch: string;
  /** The original text with the patch applied. */
  text: string;
  /**
   * The expected cursor in bytes: hunk-relative as encoded in the patch, or, when the
   * prediction rewrote an editable region, rebased to the start of that region.
   */
  cursorEditableRegionOffset: number | undefined;
}

/**
 * Apply each expected patch to the original text (an error when one does not apply, as the
 * example is then broken). With `oldEditableRegion` (region-rewriting providers), the patch
 * cursor is rebased into the region: where its first hunk matches there, plus the cursor.
 */
export function prepareExpectedPatches(patches: PatchCursor[], originalText: string, oldEditableRegion?: string): PreparedExpectedPatch[] {
  return patches.map(({ patch, cursorOffset }, index) => {
    let text: string;
    try {
      text = applyDiffToString(patch, originalText);
    } catch (error) {
      throw new FormatError(`expected_patches.${index}: does not apply to the cursor excerpt: ${(error as Error).message}`, undefined, { cause: error });
    }
    let cursor = cursorOffset;
    if (oldEditableRegion !== undefined && cursorOffset !== undefined) {
      try {
        cursor = (applyDiffWithHunkOffset(patch, oldEditableRegion).firstHunkOffset ?? 0) + cursorOffset;
      } catch {
        cursor = undefined;
      }
    }
    return { patch, text, cursorEditableRegionOffset: cursor };
  });
}
