import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities, type ActivityDeps } from '../../src/activities/index.js';
import { exampleFromRows, exampleRow, parseExampleText, scoreExample } from '../../src/editprediction/index.js';
import type { Example } from '../../src/editprediction/index.js';
import { LlmError } from '../../src/errors.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../src/llm/port.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createEpRepo, epExampleMarkdown, writeTree } from '../support/epExamples.js';
import { FAKE_WORKFLOW_SUPPORT } from '../support/fakeWorkflowSupport.js';

/** An LlmClient answering from a queue (a string, or an error to throw), recording every request. */
function queuedLlm(replies: Array<string | Error>): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(request): Promise<ChatResponse> {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error('queuedLlm: the model was asked more often than the test expected');
      if (reply instanceof Error) throw reply;
      return { content: reply, toolCalls: [], model: 'ep-model', finishReason: 'stop' };
    },
  };
}

/** The reply that rewrites example i's region to the expected patch. */
function rightReply(i: number): string {
  const region = `def f${i}(x):\n    return x + ${i}\n\n\ndef main():\n    print(f${i}(1))\n    print(f${i}(2))\n    print(f${i}(3))<|user_cursor|>\n`;
  return `<|editable_region_start|>\n${region}\n<|editable_region_end|>`;
}

describe('edit-prediction activities', () => {
  let store: Store;
  let root: string;
  /** The client the next activity gets (llmFor reads this variable). */
  let llm: ReturnType<typeof queuedLlm>;
  let activities: ReturnType<typeof createActivities>;
  const examples: Example[] = [];
  const openai = { name: 'openai', endpoint: { model: 'ep-model', apiKeyEnv: 'OPENAI_API_KEY' } };

  beforeAll(async () => {
    store = await openStore({});
    root = await writeTree({});
    const revision = await createEpRepo(root, 'repos/alpha', [1, 2]);
    const broken = epExampleMarkdown('repos/alpha', revision, 2, { cursorLine: '    print(f2(99))' });
    for (const [name, markdown] of [['one.md', epExampleMarkdown('repos/alpha', revision, 1)], ['broken.md', broken]] as const) {
      examples.push(...parseExampleText(markdown, name));
    }
    for (const example of examples) await store.saveEpExample(exampleRow(example));
    llm = queuedLlm([]);
    const deps: ActivityDeps = {
      store,
      hostId: 'test-host',
      stateDir: join(root, '.evalflow'),
      sandboxRoot: join(root, 'sandboxes'),
      llmFor: () => llm,
      candidates: {
        create: () => {
          throw new Error('no candidates in edit prediction');
        },
        workflowSupport: () => FAKE_WORKFLOW_SUPPORT,
        version: async () => null,
      },
      env: {},
      log: { info: () => undefined, warn: () => undefined },
      now: () => new Date('2026-01-01T00:00:00Z'),
      version: 'test',
    };
    activities = createActivities(deps);
  });
  afterAll(async () => {
    await store?.close();
    await rm(root, { recursive: true, force: true });
  });

  const key = (index: number) => exampleRow(examples[index]!).example_key;

  it('loads an example by replaying it in a worktree under the state dir, once', async () => {
    const first = await activities.loadEpExample({ batchId: 'b1', exampleKey: key(0), cwd: root });
    expect(first).toEqual({ replayed: true, predictions: 0 });
    const row = await store.getEpExample(key(0));
    const inputs = exampleFromRows(row!, [], []).prompt_inputs!;
    expect(inputs.cursor_excerpt).toBe('def f1(x):\n    return x + 1\n\n\ndef main():\n    print(f1(1))\n    print(f1(2))\n');
    expect(inputs.cursor_offset_in_excerpt).toBe(inputs.cursor_excerpt!.length - 1);
    // Loaded examples are not replayed again, even when their repository is gone.
    await rm(join(root, '.evalflow', 'ep'), { recursive: true, force: true });
    expect(await activities.loadEpExample({ batchId: 'b1', exampleKey: key(0), cwd: root })).toEqual({ replayed: false, predictions: 0 });
  });

  it('fails to load an example whose cursor excerpt is not in the file, as a non-retryable FormatError', async () => {
    const failure = await activities.loadEpExample({ batchId: 'b1', exampleKey: key(1), cwd: root }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'FormatError', nonRetryable: true });
    expect((failure as Error).message).toMatch(/^broken: Cursor excerpt did not exist in buffer src\/m2\.py \(after the edit history\)/);
  });

  it('predicts once: a second attempt finds the saved prediction and does not ask the model', async () => {
    const reply = rightReply(1);
    llm = queuedLlm([reply]);
    const predicted = await activities.predictEpExample({ batchId: 'b1', exampleKey: key(0), provider: openai });
    expect(predicted).toEqual({ reused: false, provider: 'openai:ep-model', error: null });
    expect(llm.requests).toHaveLength(1);
    const again = await activities.predictEpExample({ batchId: 'b1', exampleKey: key(0), provider: openai });
    expect(again).toEqual({ reused: true, provider: 'openai:ep-model', error: null });
    expect(llm.requests).toHaveLength(1);

    const [stored] = await store.getEpPredictions('b1', key(0));
    expect(stored).toMatchObject({ provider: 'openai:ep-model', repetition: 0, prediction: { actual_output: reply, provider: 'openai:ep-model' } });
    expect((stored!.prediction.prompt as { provider: string }).provider).toBe('openai:ep-model');
    expect(stored!.prediction.actual_patch).toBe('--- a/src/m1.py\n+++ b/src/m1.py\n@@ -5,3 +5,4 @@\n def main():\n     print(f1(1))\n     print(f1(2))\n+    print(f1(3))\n');
    // Another batch has its own predictions.
    expect(await store.getEpPredictions('b2', key(0))).toEqual([]);
  });

  it('lets a 429 fail the attempt as retryable and a 400 as non-retryable', async () => {
    llm = queuedLlm([new LlmError('ep-model: HTTP 429 slow down', 429, true), new LlmError('ep-model: HTTP 400 bad request', 400, false)]);
    const rateLimited = await activities.predictEpExample({ batchId: 'b3', exampleKey: key(0), provider: openai }).catch((err: unknown) => err);
    expect(rateLimited).toMatchObject({ type: 'LlmError', nonRetryable: false, message: 'ep-model: HTTP 429 slow down' });
    const rejected = await activities.predictEpExample({ batchId: 'b3', exampleKey: key(0), provider: openai }).catch((err: unknown) => err);
    expect(rejected).toMatchObject({ type: 'LlmError', nonRetryable: true });
    expect(await store.getEpPredictions('b3', key(0))).toEqual([]);
  });

  it('scores the stored predictions as the metrics do and saves one score per prediction', async () => {
    const scored = await activities.scoreEpExample({ batchId: 'b1', exampleKey: key(0), beta: 0.5 });
    expect(scored).toEqual({ deltaChrF: [100] });
    const [score] = await store.listEpScores('b1');
    expect(score).toMatchObject({ example_key: key(0), provider: 'openai:ep-model', repetition: 0 });
    const row = await store.getEpExample(key(0));
    const example = exampleFromRows(row!, await store.getEpPredictions('b1', key(0)), []);
    expect(score!.score).toEqual(JSON.parse(JSON.stringify(scoreExample(example, { beta: 0.5 }).score[0])));
    expect(score!.score).toMatchObject({ delta_chr_f: 100, exact_lines_tp: 1, exact_lines_fp: 0, exact_lines_fn: 0 });
    // The prompt saved with the prediction lets scoring rebase the expected cursor into the editable region.
    expect(score!.score).toMatchObject({ cursor_exact_match: true, cursor_distance: 0 });
  });

  it('predicts with the noop provider without any model', async () => {
    const predicted = await activities.predictEpExample({ batchId: 'b4', exampleKey: key(0), provider: { name: 'noop' } });
    expect(predicted).toEqual({ reused: false, provider: 'noop', error: null });
    expect(await activities.scoreEpExample({ batchId: 'b4', exampleKey: key(0), beta: 0.5 })).toEqual({ deltaChrF: [0] });
  });

  it('refuses to score an example that has no prediction in the batch', async () => {
    await expect(activities.scoreEpExample({ batchId: 'b5', exampleKey: key(0), beta: 0.5 })).rejects.toMatchObject({
      type: 'InternalError',
      message: 'one: batch b5 has no prediction to score; predictEpExample comes first',
    });
  });
});
