import { describe, expect, it } from 'vitest';
import { ExampleSchema } from '../../src/editprediction/format/schema.js';
import { groupExamplesByRepository, selectExamples } from '../../src/editprediction/selection.js';

const example = (name: string, repository_url: string, revision: string) =>
  ExampleSchema.parse({ name, repository_url, revision, cursor_path: 'a', cursor_position: 'a<|user_cursor|>', edit_history: '', expected_patches: [] });

const inputs = [example('z-1', 'https://b', 'r1'), example('z-2', 'https://a', 'r1'), example('y-3', 'https://a', 'r2'), example('z-4', '', 'r0')];

describe('selectExamples', () => {
  it('sorts by repository ascending then revision descending', () => {
    expect(selectExamples(inputs).map((item) => item.name)).toEqual(['z-4', 'y-3', 'z-2', 'z-1']);
  });

  it('applies --offset before sorting and --limit after the filters', () => {
    expect(selectExamples(inputs, { offset: 1, name: 'z-', limit: 2 }).map((item) => item.name)).toEqual(['z-4', 'z-2']);
    expect(selectExamples(inputs, { repo: 'https://a' }).map((item) => item.name)).toEqual(['y-3', 'z-2']);
  });
});

describe('groupExamplesByRepository', () => {
  it('groups by repository_url and keeps examples without one alone', () => {
    const groups = groupExamplesByRepository([...inputs, example('z-5', '', 'r0')]);
    expect(groups.map((group) => group.map((item) => item.name))).toEqual([['z-1'], ['z-2', 'y-3'], ['z-4'], ['z-5']]);
  });
});
