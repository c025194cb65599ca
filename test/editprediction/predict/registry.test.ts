import { describe, expect, it } from 'vitest';
import { createPredictionProvider } from '../../../src/editprediction/predict/registry.js';
import { ExampleSchema } from '../../../src/editprediction/format/schema.js';
import { ConfigError } from '../../../src/errors.js';
import { fakeLlm } from './fakeLlm.js';

describe('createPredictionProvider', () => {
  it('builds the noop baseline, which predicts no change', async () => {
    const provider = createPredictionProvider('noop');
    const example = ExampleSchema.parse({ repository_url: 'u', revision: 'r', cursor_path: 'a', cursor_position: 'a<|user_cursor|>', edit_history: '', expected_patches: [] });
    expect(provider.name).toBe('noop');
    expect(await provider.predict(example)).toEqual({ prediction: { actual_patch: '', actual_output: '', provider: 'noop' } });
  });

  it('builds openai with a model client and names the model', () => {
    expect(createPredictionProvider('openai', { llm: fakeLlm([]), model: 'm1' }).name).toBe('openai:m1');
  });

  it('rejects unknown names listing the known ones, and openai without a client', () => {
    expect(() => createPredictionProvider('zeta2')).toThrow(ConfigError);
    expect(() => createPredictionProvider('zeta2')).toThrow('--provider: unknown provider "zeta2"; expected one of noop, openai');
    expect(() => createPredictionProvider('openai')).toThrow('provider openai needs an OpenAI-compatible model client');
  });
});
