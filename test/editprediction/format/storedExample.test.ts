import { describe, expect, it } from 'vitest';
import { exampleFromRows, exampleRow, parseExampleText, predictionRows } from '../../../src/editprediction/index.js';
import type { Example } from '../../../src/editprediction/index.js';
import { epExampleMarkdown } from '../../support/epExamples.js';

const [spec] = parseExampleText(epExampleMarkdown('repos/alpha', 'abc123', 1), 'one.md');
const prompt = { input: 'the prompt', expected_output: '', rejected_output: null, provider: 'openai:m' };
const predicted: Example = {
  ...spec!,
  prompt,
  predictions: [
    { provider: 'openai:m', actual_patch: 'p1', actual_output: 'o1' },
    { provider: 'openai:m', actual_patch: 'p2', actual_output: 'o2' },
    { provider: 'noop', actual_patch: '', actual_output: '' },
  ],
};

describe('store rows of an example', () => {
  it('keeps the spec (and prompt inputs) in the example row, never predictions or scores', () => {
    const row = exampleRow({ ...predicted, prompt_inputs: { cursor_excerpt: 'x', cursor_offset_in_excerpt: 0 } });
    expect(row).toMatchObject({ name: 'one', repository_url: 'repos/alpha', revision: 'abc123' });
    expect(Object.keys(row.spec)).not.toContain('predictions');
    expect(Object.keys(row.spec)).not.toContain('prompt');
    expect(row.spec.prompt_inputs).toEqual({ cursor_excerpt: 'x', cursor_offset_in_excerpt: 0 });
  });

  it('numbers repetitions per provider and rebuilds the example with its prompt and parallel scores', () => {
    const rows = predictionRows(predicted);
    expect(rows.map((row) => [row.provider, row.repetition])).toEqual([
      ['openai:m', 0],
      ['openai:m', 1],
      ['noop', 0],
    ]);
    expect(rows[0]!.prediction).toEqual({ provider: 'openai:m', actual_patch: 'p1', actual_output: 'o1', prompt });
    const score = (value: number) => ({ delta_chr_f: value, braces_disbalance: 0 });
    const scores = rows.map((row, index) => ({ provider: row.provider, repetition: row.repetition, score: score(index * 10) }));
    const rebuilt = exampleFromRows(exampleRow(predicted), rows, scores);
    expect(rebuilt.prompt).toEqual(prompt);
    expect(rebuilt.predictions).toEqual(predicted.predictions);
    expect(rebuilt.score.map((entry) => entry.delta_chr_f)).toEqual([0, 10, 20]);
    // Zed's score list is parallel to predictions: with one score missing there is none.
    expect(exampleFromRows(exampleRow(predicted), rows, scores.slice(1)).score).toEqual([]);
  });

  it('names the row when stored JSON is not an example', () => {
    expect(() => exampleFromRows({ example_key: 'ep-1', spec: { name: 'x' } }, [], [])).toThrow(/^store: ep_examples ep-1/);
  });
});
