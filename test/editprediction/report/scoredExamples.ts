import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeCursorExcerpt, extractCursorFromPatch } from '../../../src/editprediction/format/cursorMarkers.js';
import { promptInputsFromSpec, scoreExample } from '../../../src/editprediction/pipeline.js';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import type { Example } from '../../../src/editprediction/format/schema.js';
import { CORPUS_DIR } from '../fixtureDir.js';

/**
 * zed--add-eprintln scored on its own excerpt with two scripted predictions: the expected
 * patch itself with a cursor 5 bytes early, and the no-op baseline.
 */
export async function scoredEprintln(): Promise<Example> {
  const file = 'zed--add-eprintln.md';
  const [example] = parseExampleText(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
  const withInputs = { ...example!, prompt_inputs: promptInputsFromSpec(example!, decodeCursorExcerpt(example!.cursor_position)) };
  const expected = extractCursorFromPatch(example!.expected_patches[0] as string).patch;
  return scoreExample({
    ...withInputs,
    predictions: [
      { actual_patch: expected, actual_output: '', provider: 'scripted', actual_cursor: { path: example!.cursor_path, row: 8, column: 14, offset: 0, editable_region_offset: 70 } },
      { actual_patch: '', actual_output: '', provider: 'noop' },
    ],
  });
}
