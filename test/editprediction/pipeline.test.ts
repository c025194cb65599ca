import { describe, expect, it } from 'vitest';
import { formatEvalReport } from '../../src/editprediction/report/evalReport.js';
import { loadProject, predictExample, scoreExample } from '../../src/editprediction/pipeline.js';
import { createNoopProvider } from '../../src/editprediction/predict/noop.js';
import { createOpenAiProvider } from '../../src/editprediction/predict/openai.js';
import { parseExampleText } from '../../src/editprediction/format/readExamples.js';
import { formatJsonl } from '../../src/editprediction/format/writeExamples.js';
import { FormatError } from '../../src/errors.js';
import { writeFixtures } from './fixtureDir.js';
import { fakeLlm } from './predict/fakeLlm.js';
import { localExample } from './replay/localExample.js';

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
