// 7. Edit-prediction scoring: 10,000 predictions over the scorable Zed corpus examples, scored
// by one shared scorer per example (the excerpt's and expected patches' side computed once)
// against the straightforward way, every metric from scratch per prediction, alternated in
// one run. Reported as predictions per second and their ratio.
//
//   node --import tsx bench/editPrediction.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { decodeCursorExcerpt, extractCursorFromPatch } from '../src/editprediction/format/cursorMarkers.js';
import { parseExampleText } from '../src/editprediction/format/readExamples.js';
import { prepareExpectedPatches } from '../src/editprediction/metrics/expectedPatches.js';
import { createPredictionScorer, scorePrediction } from '../src/editprediction/metrics/scorePrediction.js';
import { row, writeResult } from './support/benchResult.js';
import { alternate } from './support/measure.js';

const CORPUS = resolve(import.meta.dirname, '../test/fixtures/editprediction/zed-evals');
const PREDICTIONS = 10_000;
const ROUNDS = 3;
const started = Date.now();

/** Each expected patch, a no-op, and variants with one added line changed (they still apply). */
function variants(patches: string[], count: number): (string | undefined)[] {
  const out: (string | undefined)[] = [undefined];
  for (let i = 0; out.length < count; i++) {
    const patch = patches[i % patches.length]!;
    const lines = patch.split('\n');
    const added = lines.map((line, index) => (line.startsWith('+') && !line.startsWith('+++') ? index : -1)).filter((index) => index >= 0);
    if (i < patches.length || added.length === 0) {
      out.push(patch);
      continue;
    }
    const at = added[i % added.length]!;
    lines[at] = `${lines[at]!.slice(0, 1 + (i % Math.max(lines[at]!.length - 1, 1)))}${String.fromCharCode(97 + (i % 26))}${lines[at]!.slice(2 + (i % Math.max(lines[at]!.length - 1, 1)))}`;
    out.push(lines.join('\n'));
  }
  return out;
}

const examples = [];
for (const file of readdirSync(CORPUS).filter((name) => name.endsWith('.md'))) {
  const [example] = parseExampleText(readFileSync(join(CORPUS, file), 'utf8'), file);
  const { excerpt } = decodeCursorExcerpt(example!.cursor_position);
  const patches = example!.expected_patches.map(extractCursorFromPatch);
  try {
    examples.push({ excerpt, prepared: prepareExpectedPatches(patches, excerpt), patches: patches.map((p) => p.patch) });
  } catch {
    // Patches reaching outside the excerpt need the replayed file.
  }
}
const perExample = Math.ceil(PREDICTIONS / examples.length);
const work = examples.map((example) => ({ ...example, predictions: variants(example.patches, perExample) }));
const total = work.reduce((sum, example) => sum + example.predictions.length, 0);

let checksum = 0;
const m = await alternate(
  () => {
    for (const example of work) {
      const score = createPredictionScorer({ originalText: example.excerpt, expectedPatches: example.prepared });
      for (const actualPatch of example.predictions) checksum += score({ actualPatch }).delta_chr_f;
    }
  },
  () => {
    for (const example of work) {
      for (const actualPatch of example.predictions) checksum += scorePrediction({ originalText: example.excerpt, expectedPatches: example.prepared, actualPatch }).delta_chr_f;
    }
  },
  ROUNDS,
);
const shared = total / (m.subjectMs / 1000);
const plain = total / (m.baselineMs / 1000);
writeResult(
  {
    name: 'edit-prediction',
    title: 'Edit-prediction scoring',
    rows: [
      row('predictions scored per second, shared scorer', shared, '/s'),
      row('predictions scored per second, from scratch', plain, '/s'),
      row('speed-up of the shared scorer', shared / plain, '×', { against: 'every metric from scratch per prediction', detail: `${total} predictions over ${work.length} corpus examples, medians of ${ROUNDS}` }),
    ],
    notes: [`checksum ${checksum.toFixed(0)} (both sides score the same predictions)`],
  },
  started,
);
