import { describe, expect, it } from 'vitest';
import { exampleKey, parseExampleText } from '../../../src/editprediction/index.js';
import { epExampleMarkdown } from '../../support/epExamples.js';

const [example] = parseExampleText(epExampleMarkdown('repos/alpha', 'abc123', 1), 'one.md');

describe('exampleKey', () => {
  it('is a short stable hash of the spec, the same under another name and with pipeline state', () => {
    const key = exampleKey(example!);
    expect(key).toMatch(/^ep-[0-9a-f]{32}$/);
    expect(exampleKey({ ...example!, name: 'renamed' })).toBe(key);
    expect(exampleKey({ ...example!, predictions: [{ provider: 'noop', actual_patch: '', actual_output: '' }] })).toBe(key);
    // Key order inside nested objects does not matter.
    const tagged = { ...example!, telemetry: { request_id: 'r', device_id: 'd', time: 't', rejection_reason: 'x', was_shown: true } };
    const reordered = { ...example!, telemetry: { was_shown: true, time: 't', rejection_reason: 'x', device_id: 'd', request_id: 'r' } };
    expect(exampleKey(reordered)).toBe(exampleKey(tagged));
  });

  it('changes with any spec field', () => {
    const key = exampleKey(example!);
    expect(exampleKey({ ...example!, revision: 'abc124' })).not.toBe(key);
    expect(exampleKey({ ...example!, expected_patches: [] })).not.toBe(key);
    expect(exampleKey({ ...example!, tags: ['x'] })).not.toBe(key);
  });
});
