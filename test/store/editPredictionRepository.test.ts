import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

describe.each(BACKENDS)('edit prediction on %s', (backend) => {
  const store = useStore(backend);

  async function newExample(): Promise<string> {
    const exampleKey = uniqueId('sha256');
    await store().saveEpExample({
      example_key: exampleKey,
      name: 'rename-variable',
      repository_url: 'https://github.com/zed-industries/zed',
      revision: 'abc123',
      spec: { cursor_path: 'src/main.rs', edit_history: ['--- a\n+++ b'] },
    });
    return exampleKey;
  }

  it('saveEpExample is idempotent and refreshes the descriptive columns', async () => {
    const exampleKey = await newExample();
    const again = await store().saveEpExample({ example_key: exampleKey, name: 'renamed', repository_url: 'u', revision: 'r', spec: { a: 1 } });
    expect(again).toMatchObject({ example_key: exampleKey, name: 'renamed', spec: { a: 1 } });
  });

  it('predictions are stored per provider and repetition, replaced on re-save, listed in order', async () => {
    const exampleKey = await newExample();
    const batchId = uniqueId('batch-ep');
    await store().saveEpPrediction({ batch_id: batchId, example_key: exampleKey, provider: 'zeta', repetition: 1, prediction: { patch: 'p1' } });
    await store().saveEpPrediction({ batch_id: batchId, example_key: exampleKey, provider: 'zeta', repetition: 0, prediction: { patch: 'p0' } });
    await store().saveEpPrediction({ batch_id: batchId, example_key: exampleKey, provider: 'baseline', repetition: 0, prediction: { patch: 'b0' } });
    await store().saveEpPrediction({ batch_id: batchId, example_key: exampleKey, provider: 'zeta', repetition: 1, prediction: { patch: 'p1-retry' } });

    const predictions = await store().getEpPredictions(batchId, exampleKey);
    expect(predictions.map((p) => [p.provider, p.repetition, p.prediction])).toEqual([
      ['baseline', 0, { patch: 'b0' }],
      ['zeta', 0, { patch: 'p0' }],
      ['zeta', 1, { patch: 'p1-retry' }],
    ]);
    expect(await store().getEpPredictions(uniqueId('batch-other'), exampleKey)).toEqual([]);
  });

  it('scores are stored per prediction and listed per batch', async () => {
    const first = await newExample();
    const second = await newExample();
    const batchId = uniqueId('batch-ep');
    for (const exampleKey of [second, first]) {
      await store().saveEpPrediction({ batch_id: batchId, example_key: exampleKey, provider: 'zeta', repetition: 0, prediction: {} });
      await store().saveEpScore({ batch_id: batchId, example_key: exampleKey, provider: 'zeta', repetition: 0, score: { exact: false } });
    }
    await store().saveEpScore({ batch_id: batchId, example_key: first, provider: 'zeta', repetition: 0, score: { exact: true, chr_f: 0.91 } });

    const scores = await store().listEpScores(batchId);
    // Keys share a prefix and differ in [0-9a-z] only, so every collation orders them alike.
    const expected: [string, Record<string, unknown>][] = [
      [first, { exact: true, chr_f: 0.91 }],
      [second, { exact: false }],
    ];
    expected.sort((x, y) => (x[0] < y[0] ? -1 : 1));
    expect(scores.map((s) => [s.example_key, s.score])).toEqual(expected);
  });

  it('a prediction of an unknown example and a score of an unknown prediction are StoreErrors saying so', async () => {
    await expect(store().saveEpPrediction({ batch_id: 'b', example_key: 'nope', provider: 'zeta', repetition: 0, prediction: {} })).rejects.toThrow(
      new StoreError('store: saveEpPrediction(batch "b", example "nope", provider "zeta", repetition 0) failed: expected a row in ep_examples for example_key "nope", found none (saveEpExample first)'),
    );
    const exampleKey = await newExample();
    await expect(store().saveEpScore({ batch_id: 'b', example_key: exampleKey, provider: 'zeta', repetition: 3, score: {} })).rejects.toThrow(
      new StoreError(`store: saveEpScore(batch "b", example "${exampleKey}", provider "zeta", repetition 3) failed: expected a row in ep_predictions with the same key, found none (saveEpPrediction first)`),
    );
  });
});
