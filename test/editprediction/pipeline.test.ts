import { describe, expect, it } from 'vitest';
import { formatEvalReport } from '../../src/editprediction/report/evalReport.js';
import { loadProject, predictExample, scoreExample } from '../../src/editprediction/pipeline.js';
import { createNoopProvider } from '../../src/editprediction/predict/noop.js';
import { createOpenAiProvider } from '../../src/editprediction/predict/openai.js';
import { parseExampleText } from '../../src/editprediction/format/readExamples.js';
import { formatJsonl } from '../../src/editprediction/format/writeExamples.js';
import { extractCursorFromPatch } from '../../src/editprediction/format/cursorMarkers.js';
import { FormatError } from '../../src/errors.js';
import { LF_LINE_ON_CRLF_SCORE } from '../support/lfLineOnCrlfScore.js';
import { writeFixtures } from './fixtureDir.js';
import { fakeLlm } from './predict/fakeLlm.js';
import { createGitRepo } from './replay/gitFixture.js';
import { lineEndingExample, localExample, twinText } from './replay/localExample.js';
import type { LineEndingVariant } from './replay/localExample.js';

describe('loadProject → predictExample → scoreExample', () => {
  it('fills prompt_inputs in Zed’s ZetaPromptInput shape from the replayed buffer', async () => {
    const { example } = await localExample();
    const loaded = await loadProject(example, { cacheDir: await writeFixtures({}) });
    const inputs = loaded.prompt_inputs!;
    expect(inputs.cursor_excerpt).toBe('import os\nimport sys\n\n\ndef greet(name):\n    return "hello, " + name\n\n\ndef main():\n    print(greet("world"))\n    print(greet("you"))\n');
    expect(inputs).toMatchObject({
      cursor_path: 'src/app.py',
      cursor_offset_in_excerpt: inputs.cursor_excerpt!.indexOf('    print(greet("you"))') + 23,
      excerpt_start_row: 0,
      related_files: null,
      in_open_source_repo: false,
    });
    expect(inputs.events?.map((event) => event.predicted)).toEqual([false, true]);
    expect(inputs.excerpt_ranges?.editable_180).toEqual({ start: 0, end: inputs.cursor_excerpt!.length });
    expect(await loadProject(loaded, { cacheDir: '/nonexistent' })).toBe(loaded);
  });

  it('scores the no-op baseline and a scripted model on the replayed example', async () => {
    const { example } = await localExample();
    const loaded = await loadProject(example, { cacheDir: await writeFixtures({}) });
    const excerpt = loaded.prompt_inputs!.cursor_excerpt!;

    const noop = scoreExample(await predictExample(loaded, createNoopProvider()));
    expect(noop.score).toHaveLength(1);
    expect(noop.score[0]).toMatchObject({ delta_chr_f: 0, exact_lines_tp: 0, exact_lines_fn: 1, kept_rate: 0 });

    // The reply repeats the region as the prompt framed it: markers on their own lines.
    const region = excerpt.replace('    print(greet("you"))\n', '    print(greet("you"))\n    print(greet("me"))<|user_cursor|>\n');
    const llm = fakeLlm([`<|editable_region_start|>\n${region}\n<|editable_region_end|>`]);
    const predicted = await predictExample(loaded, createOpenAiProvider({ llm }));
    const scored = scoreExample(predicted);
    expect(scored.score[0]).toMatchObject({ delta_chr_f: 100, exact_lines_tp: 1, exact_lines_fp: 0, wrong_editable_region: false, reversal_ratio: 0 });
    expect(await predictExample(scored, createNoopProvider())).toBe(scored);

    const report = formatEvalReport([noop, scored]);
    expect(report[3]).toMatch(/^local-demo\s+0\.00/);
    expect(report[4]).toMatch(/^local-demo\s+100\.00/);

    const [again] = parseExampleText(formatJsonl([scored]), 'round.jsonl');
    expect(again).toEqual(scored);
  });

  it('requires prompt_inputs and expected patches that apply to the excerpt', async () => {
    const { example } = await localExample();
    expect(() => scoreExample(example)).toThrow('local-demo: prompt_inputs is required for scoring');
    const loaded = await loadProject(example, { cacheDir: await writeFixtures({}) });
    const broken = { ...loaded, expected_patches: ['--- a/src/app.py\n+++ b/src/app.py\n-not in the file\n+x\n'] };
    expect(() => scoreExample(broken)).toThrow(FormatError);
    expect(() => scoreExample(broken)).toThrow(/^Expected patch did not apply for local-demo: expected_patches\.0: does not apply/);
  });
});

describe('CRLF and mixed examples through load → predict → score', () => {
  const crlf = (text: string) => text.replace(/\n/g, '\r\n');
  /** The predictions, as LF patches of the replayed file, each made the twin of its example. */
  const PATCHES = {
    expected: 'EXPECTED',
    noop: '',
    partial: '--- a/src/app.py\n+++ b/src/app.py\n@@ -10,3 +10,4 @@\n     print(greet("world"))\n     print(greet("you"))\n+    print(greet("m"))\n',
    reverting: '--- a/src/app.py\n+++ b/src/app.py\n@@ -10,2 +10,1 @@\n     print(greet("world"))\n-    print(greet("you"))\n',
  };

  /** Load the variant, predict each patch (the expected one with its exact cursor), score. */
  async function scored(variant: LineEndingVariant) {
    const { example } = await lineEndingExample(variant);
    const loaded = await loadProject(example, { cacheDir: await writeFixtures({}) });
    const expected = extractCursorFromPatch(loaded.expected_patches[0] as string);
    const textVariant = variant === 'lfExampleOnCrlfRepo' ? 'zed' : variant;
    const predictions = Object.entries(PATCHES).map(([label, patch]) => ({
      provider: `scripted-${label}`,
      actual_output: '',
      actual_patch: patch === 'EXPECTED' ? expected.patch : twinText(patch, 'diff', textVariant),
      ...(patch === 'EXPECTED' ? { actual_cursor: { path: 'src/app.py', row: 11, column: 0, offset: 0, editable_region_offset: expected.cursorOffset } } : {}),
    }));
    return { loaded, expectedCursor: expected.cursorOffset!, scores: scoreExample({ ...loaded, predictions }).score };
  }

  it('scores the mixed twin exactly as the LF twin: the predictions change LF lines only', async () => {
    const lf = await scored('lf');
    const mixed = await scored('mixed');
    expect(mixed.loaded.prompt_inputs!.cursor_excerpt).toBe(
      'import os\r\nimport sys\r\n\n\ndef greet(name):\r\n    return "hello, " + name\r\n\n\ndef main():\r# entry\r\n    print(greet("world"))\n    print(greet("you"))\n',
    );
    expect(mixed.scores).toEqual(lf.scores);
    // Non-trivial numbers, so the equality means something.
    expect(lf.scores.map((score) => score.delta_chr_f)).toEqual([100, 0, expect.any(Number), expect.any(Number)]);
    expect(lf.scores[2]!.delta_chr_f).toBeGreaterThan(0);
    expect(lf.scores[3]!.reversal_ratio).toBe(1);
    // The expected cursor counts one more byte: the CR of "def main():\r# entry\r\n" before it.
    expect(mixed.expectedCursor).toBe(lf.expectedCursor + 1);
  });

  it('scores the CRLF twin as the LF twin except for counts of characters, which its CRs add to', async () => {
    const lf = await scored('lf');
    const twin = await scored('crlf');
    expect(twin.loaded.prompt_inputs!.cursor_excerpt).toBe(crlf(lf.loaded.prompt_inputs!.cursor_excerpt!));
    expect(twin.loaded.prompt_inputs!.cursor_offset_in_excerpt).toBe(lf.loaded.prompt_inputs!.cursor_offset_in_excerpt! + 10);
    const counts = ['delta_chr_f_true_positives', 'delta_chr_f_false_negatives', 'kept_chars'];
    const without = (score: object) => Object.fromEntries(Object.entries(score).filter(([key]) => !counts.includes(key)));
    // The expected patch and the no-op: every ratio, F1 input, token count and flag agrees.
    expect(twin.scores.slice(0, 2).map(without)).toEqual(lf.scores.slice(0, 2).map(without));
    // The added line "    print(greet("me"))" ends in CRLF: its new units are one byte longer.
    expect(twin.scores[0]!.kept_chars).toBe(lf.scores[0]!.kept_chars! + 1);
    // The other two change lines whose ends the n-grams see (" \n" for "\n"): their line, brace,
    // reversal, region, whitespace and token metrics still agree.
    const lineMetrics = (score: object) =>
      Object.fromEntries(Object.entries(score).filter(([key]) => /^(exact_lines_|braces|reversal|wrong_editable|has_isolated|inserted_tokens|deleted_tokens)/.test(key)));
    expect(twin.scores.slice(2).map(lineMetrics)).toEqual(lf.scores.slice(2).map(lineMetrics));
    // The patch cursor counts the patch's own new-side lines: three CRLF context lines before it.
    expect(twin.expectedCursor).toBe(lf.expectedCursor + 3);
  });

  it('scores an LF example captured by Zed on the CRLF repository as the LF twin, on the files read as LF', async () => {
    const lf = await scored('lf');
    const zed = await scored('lfExampleOnCrlfRepo');
    expect(zed.loaded.prompt_inputs!.cursor_excerpt).not.toContain('\r');
    expect(zed.scores).toEqual(lf.scores);
  });

  it('scores a prediction whose new line ends in LF on a CRLF file by the hand-computed numbers', async () => {
    const { repo, shas } = await createGitRepo([{ 'a.txt': 'a\r\n' }], 'tiny');
    const markdown = crlf(`+++\nrepository_url = ${JSON.stringify(repo)}\nrevision = "${shas[0]}"\n+++\n\n## Cursor Position\n\n\`\`\`a.txt\na\n^[CURSOR_POSITION]\n\`\`\`\n\n## Expected Patch\n\n\`\`\`diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n a\n+b\n\`\`\`\n`);
    const [example] = parseExampleText(markdown, 'tiny.md');
    const loaded = await loadProject(example!, { cacheDir: await writeFixtures({}) });
    expect(loaded.prompt_inputs!.cursor_excerpt).toBe('a\r\n');
    const lfLine = { provider: 'lf-line', actual_output: '', actual_patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n a\r\n+b\n' };
    const [score] = scoreExample({ ...loaded, predictions: [lfLine] }).score;
    // Read from the repository, the example is O = "a\r\n", E = "a\r\nb\r\n", A = "a\r\nb\n".
    expect(score).toMatchObject(LF_LINE_ON_CRLF_SCORE);
  });

  it('predicts with a model that answers a CRLF excerpt in LF, keeping the file’s CRLFs in the patch', async () => {
    const { example } = await lineEndingExample('crlf');
    const loaded = await loadProject(example, { cacheDir: await writeFixtures({}) });
    // The model echoes the region in LF (the lone CR of "def main():\r# entry" it keeps).
    const excerpt = loaded.prompt_inputs!.cursor_excerpt!.replace(/\r\n/g, '\n');
    const region = excerpt.replace('    print(greet("you"))\n', '    print(greet("you"))\n    print(greet("me"))<|user_cursor|>\n');
    const llm = fakeLlm([`<|editable_region_start|>\n${region}\n<|editable_region_end|>`]);
    const predicted = await predictExample(loaded, createOpenAiProvider({ llm }));
    expect(predicted.predictions[0]!.actual_patch).toMatch(/\n\+ {4}print\(greet\("me"\)\)\r\n$/);
    const changed = predicted.predictions[0]!.actual_patch!.split('\n').filter((line) => /^[+-]/.test(line) && !/^(---|\+\+\+) /.test(line));
    expect(changed).toEqual(['+    print(greet("me"))\r']);
    expect(scoreExample(predicted).score[0]).toMatchObject({ delta_chr_f: 100, exact_lines_tp: 1, exact_lines_fp: 0 });
  });
});
