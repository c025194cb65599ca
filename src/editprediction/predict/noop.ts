import type { EditPredictionProvider } from './provider.js';

/** The baseline: predicts that nothing changes (an empty patch, no cursor). */
export function createNoopProvider(): EditPredictionProvider {
  return {
    name: 'noop',
    predict: async () => ({ prediction: { actual_patch: '', actual_output: '', provider: 'noop' } }),
  };
}
