import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCursorExcerpt, extractCursorFromPatch } from '../../../src/editprediction/format/cursorMarkers.js';
import { prepareExpectedPatches } from '../../../src/editprediction/metrics/expectedPatches.js';
import { createPredictionScorer, scorePrediction } from '../../../src/editprediction/metrics/scorePrediction.js';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import { LF_LINE_ON_CRLF_SCORE } from '../../support/lfLineOnCrlfScore.js';
import { CORPUS_DIR } from '../fixtureDir.js';

/** Corpus examples whose expected patches all apply to the example's own cursor excerpt. */
async function scorableCorpus() {
  const scorable = [];
  for (const file of (await readdir(CORPUS_DIR)).filter((name) => name.endsWith('.md'))) {
    const [example] = parseExampleText(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
    const { excerpt } = decodeCursorExcerpt(example!.cursor_position);
    const patches = example!.expected_patches.map(extractCursorFromPatch);
    try {
      scorable.push({ name: example!.name, excerpt, patches, prepared: prepareExpectedPatches(patches, excerpt) });
    } catch {
      // Patches reaching outside the excerpt need the replayed file; covered by the pipeline tests.
    }
  }
  return scorable;
}

describe('scorePrediction on real corpus examples with scripted predictions', () => {
  it('scores each expected patch, used as the prediction, 100 with exact lines and full kept rate', async () => {
    const examples = await scorableCorpus();
    expect(examples.length).toBeGreaterThanOrEqual(14);
    for (const example of examples) {
      for (const [index, patch] of example.patches.entries()) {
        const score = scorePrediction({ originalText: example.excerpt, expectedPatches: example.prepared, actualPatch: patch.patch });
        const label = `${example.name} #${index}`;
        expect(score.delta_chr_f, label).toBe(100);
        expect(score.exact_lines_fp, label).toBe(0);
        expect(score.exact_lines_fn, label).toBe(0);
        expect(score.exact_lines_tp, label).toBeGreaterThan(0);
        expect(score.kept_rate, label).toBe(1);
        expect(score.recall_rate, label).toBe(1);
        expect(score.wrong_editable_region, label).toBe(false);
      }
    }
  });

  it('scores the no-op baseline 0 delta chrF, no exact lines, no kept or recalled edit', async () => {
    for (const example of await scorableCorpus()) {
      const score = scorePrediction({ originalText: example.excerpt, expectedPatches: example.prepared, actualPatch: '' });
      expect(score.delta_chr_f, example.name).toBe(0);
      expect(score.delta_chr_f_true_positives, example.name).toBe(0);
      expect(score.delta_chr_f_false_positives, example.name).toBe(0);
      expect(score.delta_chr_f_false_negatives, example.name).toBeGreaterThan(0);
      expect(score.exact_lines_tp, example.name).toBe(0);
      expect(score.kept_rate, example.name).toBe(0);
      expect(score.recall_rate, example.name).toBe(0);
    }
  });

  it('picks the best of several expected patches (terraform has five alternatives)', async () => {
    const terraform = (await scorableCorpus()).find((example) => example.name === 'terraform--add-comment');
    expect(terraform?.patches).toHaveLength(5);
    const third = terraform!.patches[2]!.patch;
    const score = scorePrediction({ originalText: terraform!.excerpt, expectedPatches: terraform!.prepared, actualPatch: third });
    expect(score.delta_chr_f).toBe(100);
    expect({ tp: score.exact_lines_tp, fp: score.exact_lines_fp, fn: score.exact_lines_fn }).toEqual({ tp: 2, fp: 0, fn: 0 });
  });

  it('compares the predicted cursor with the expected patch cursor (zed--add-eprintln: 75)', async () => {
    const zed = (await scorableCorpus()).find((example) => example.name === 'zed--add-eprintln')!;
    const patch = zed.patches[0]!.patch;
    const base = { originalText: zed.excerpt, expectedPatches: zed.prepared, actualPatch: patch };
    expect(scorePrediction({ ...base, actualCursor: { row: 9, editableRegionOffset: 75 } })).toMatchObject({ cursor_exact_match: true, cursor_distance: 0 });
    expect(scorePrediction({ ...base, actualCursor: { row: 9, editableRegionOffset: 70 } })).toMatchObject({ cursor_exact_match: false, cursor_distance: 5 });
    expect(scorePrediction(base)).toMatchObject({ cursor_exact_match: false });
    expect(scorePrediction(base).cursor_distance).toBeUndefined();
  });

  it('treats a missing or unappliable prediction patch as no change', () => {
    const original = 'let value = old_name();\n';
    const prepared = prepareExpectedPatches([{ patch: '--- a/f\n+++ b/f\n-let value = old_name();\n+let value = new_name();\n', cursorOffset: undefined }], original);
    const missing = scorePrediction({ originalText: original, expectedPatches: prepared, actualPatch: undefined });
    const broken = scorePrediction({ originalText: original, expectedPatches: prepared, actualPatch: '--- a/f\n+++ b/f\n-absent\n+x\n' });
    expect(missing).toMatchObject({ delta_chr_f: 0, wrong_editable_region: null, has_isolated_whitespace_changes: false });
    expect(broken).toMatchObject({ delta_chr_f: 0, wrong_editable_region: false });
  });

  it('compares against "no change" when there are no expected patches', () => {
    const score = scorePrediction({ originalText: 'same\n', expectedPatches: [], actualPatch: '' });
    expect(score).toMatchObject({ delta_chr_f: 100, kept_rate: 1, recall_rate: 1 });
  });

  it('reports braces the prediction unbalances, with β recorded', () => {
    const prepared = prepareExpectedPatches([{ patch: '--- a/f\n+++ b/f\n-f()\n+f(1)\n', cursorOffset: undefined }], 'f()\n');
    const score = scorePrediction({ originalText: 'f()\n', expectedPatches: prepared, actualPatch: '--- a/f\n+++ b/f\n-f()\n+f((1)\n', beta: 2 });
    expect(score.braces_disbalance).toBe(1);
    expect(score.delta_chr_f_beta).toBe(2);
  });
});

describe('scorePrediction on CRLF texts', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  /** Fields that count characters or bytes, which a CRLF adds to; every other field must agree. */
  const CHARACTER_COUNTS = ['delta_chr_f_true_positives', 'delta_chr_f_false_positives', 'delta_chr_f_false_negatives', 'kept_chars', 'correctly_deleted_chars'];
  const withoutCounts = (score: object) => Object.fromEntries(Object.entries(score).filter(([key]) => !CHARACTER_COUNTS.includes(key)));

  it('scores the CRLF twin of every corpus excerpt, expected patch and prediction as its LF twin', async () => {
    const examples = await scorableCorpus();
    expect(examples.length).toBeGreaterThanOrEqual(14);
    for (const example of examples) {
      const twinPatches = example.patches.map((patch) => ({ patch: crlf(patch.patch), cursorOffset: undefined }));
      const lfPatches = example.patches.map((patch) => ({ patch: patch.patch, cursorOffset: undefined }));
      const twinPrepared = prepareExpectedPatches(twinPatches, crlf(example.excerpt));
      const lfPrepared = prepareExpectedPatches(lfPatches, example.excerpt);
      expect(twinPrepared.map((prepared) => prepared.text), example.name).toEqual(lfPrepared.map((prepared) => crlf(prepared.text)));
      for (const actual of [...example.patches.map((patch) => patch.patch), '']) {
        const lf = scorePrediction({ originalText: example.excerpt, expectedPatches: lfPrepared, actualPatch: actual });
        const twin = scorePrediction({ originalText: crlf(example.excerpt), expectedPatches: twinPrepared, actualPatch: crlf(actual) });
        expect(withoutCounts(twin), `${example.name} ${actual.slice(0, 40)}`).toEqual(withoutCounts(lf));
        expect(twin.kept_chars, example.name).toBeGreaterThanOrEqual(lf.kept_chars ?? 0);
      }
    }
  });

  it('scores a prediction whose new line ends in LF where the expected one ends in CRLF by hand-computed numbers', () => {
    const original = 'a\r\n';
    const prepared = prepareExpectedPatches([{ patch: '--- a/f\r\n+++ b/f\r\n@@ -1,1 +1,2 @@\r\n a\r\n+b\r\n', cursorOffset: undefined }], original);
    const score = scorePrediction({ originalText: original, expectedPatches: prepared, actualPatch: '--- a/f\n+++ b/f\n@@ -1,1 +1,2 @@\n a\r\n+b\n' });
    expect(score).toMatchObject({
      ...LF_LINE_ON_CRLF_SCORE,
      deleted_tokens: 0,
      braces_disbalance: 0,
      wrong_editable_region: false,
      has_isolated_whitespace_changes: false,
    });
    expect(score.delta_chr_f_precision).toBeCloseTo(5 / 12, 12);
    expect(score.delta_chr_f_recall).toBeCloseTo(5 / 18, 12);
  });
});

describe('prepareExpectedPatches', () => {
  it('fails naming the patch that does not apply', () => {
    // A patch without a --- header edits no file, so it applies (as nothing); this one has one.
    expect(() => prepareExpectedPatches([{ patch: '--- a/f\n+++ b/f\n-missing\n', cursorOffset: undefined }], 'text\n')).toThrow(/^expected_patches\.0: does not apply to the cursor excerpt: couldn't resolve hunk/);
  });

  it('rebases a hunk-relative cursor into an editable region', () => {
    const [prepared] = prepareExpectedPatches([{ patch: '--- a/f\n+++ b/f\n-b\n+bb\n', cursorOffset: 2 }], 'a\nb\nc\n', 'x\ny\nb\n');
    expect(prepared).toMatchObject({ text: 'a\nbb\nc\n', cursorEditableRegionOffset: 4 + 2 });
  });
});

describe('createPredictionScorer', () => {
  it('scores every prediction of an example as scoring it alone would, in any order', async () => {
    const examples = await scorableCorpus();
    const otherPatch = examples[0]!.patches[0]!.patch;
    for (const example of examples) {
      const predictions = [
        ...example.patches.map((patch) => patch.patch),
        undefined,
        otherPatch,
        ...example.patches.map((patch) => patch.patch.split('\n').slice(0, -2).join('\n')),
      ];
      const alone = predictions.map((actualPatch) => scorePrediction({ originalText: example.excerpt, expectedPatches: example.prepared, actualPatch }));
      const shared = createPredictionScorer({ originalText: example.excerpt, expectedPatches: example.prepared });
      const reversed = [...predictions].reverse().map((actualPatch) => shared({ actualPatch })).reverse();
      expect(reversed, example.name).toEqual(alone);
      expect(predictions.map((actualPatch) => shared({ actualPatch })), example.name).toEqual(alone);
    }
  });
});
