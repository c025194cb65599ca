import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyDiffToString } from '../../../src/editprediction/replay/applyDiff.js';
import { decodeCursorExcerpt } from '../../../src/editprediction/format/cursorMarkers.js';
import { promptInputsFromSpec, scoreExample } from '../../../src/editprediction/pipeline.js';
import { createOpenAiProvider, predictionFromReply } from '../../../src/editprediction/predict/openai.js';
import { extractEditableRegion } from '../../../src/editprediction/predict/prompt.js';
import { parseExampleText } from '../../../src/editprediction/format/readExamples.js';
import type { Example } from '../../../src/editprediction/format/schema.js';
import { LlmError } from '../../../src/errors.js';
import { CORPUS_DIR } from '../fixtureDir.js';
import { fakeLlm } from './fakeLlm.js';

async function eprintln(): Promise<Example> {
  const file = 'zed--add-eprintln.md';
  const [example] = parseExampleText(await readFile(path.join(CORPUS_DIR, file), 'utf8'), file);
  return { ...example!, prompt_inputs: promptInputsFromSpec(example!, decodeCursorExcerpt(example!.cursor_position)) };
}

describe('openai provider', () => {
  it('prompts with the edit history and the excerpt marking the editable region and cursor', async () => {
    const example = await eprintln();
    const llm = fakeLlm(['NO_EDITS']);
    const outcome = await createOpenAiProvider({ llm, model: 'gpt-test' }).predict(example);
    const [request] = llm.requests;
    expect(request?.role).toBe('candidate');
    expect(request?.messages[0]?.role).toBe('system');
    const user = request?.messages[1]?.content as string;
    expect(user).toContain('+        epr\n');
    expect(user).toContain('<|editable_region_start|>\n');
    expect(user).toContain('        epr<|user_cursor|>\n');
    expect(outcome.prediction).toEqual({ actual_patch: '', actual_output: 'NO_EDITS', provider: 'openai:gpt-test' });
    expect(outcome.prompt?.provider).toBe('openai:gpt-test');
    expect(extractEditableRegion(outcome.prompt!.input)).toBe(example.prompt_inputs!.cursor_excerpt);
  });

  it('turns a rewritten region into a patch and a cursor that score 100 and an exact cursor', async () => {
    const example = await eprintln();
    const excerpt = example.prompt_inputs!.cursor_excerpt!;
    const region = excerpt.replace('        epr\n', '        eprintln!("<|user_cursor|>");\n');
    const reply = `<|editable_region_start|>\n${region}\n<|editable_region_end|>`;
    const outcome = await createOpenAiProvider({ llm: fakeLlm([reply]) }).predict(example);
    const { prediction } = outcome;
    expect(prediction.error).toBeUndefined();
    expect(applyDiffToString(prediction.actual_patch!, excerpt)).toBe(excerpt.replace('        epr\n', '        eprintln!("");\n'));
    // Between the quotes of '        eprintln!("")': row 8 of the excerpt, byte column 19.
    expect(prediction.actual_cursor).toMatchObject({ row: 8, column: 19, editable_region_offset: excerpt.indexOf('        epr') + 19 });

    const scored = scoreExample({ ...example, predictions: [prediction], prompt: outcome.prompt });
    expect(scored.score[0]).toMatchObject({ delta_chr_f: 100, cursor_exact_match: true, cursor_distance: 0, exact_lines_fp: 0, exact_lines_fn: 0 });
  });

  it('records a malformed reply as a prediction with an error, not a crash', async () => {
    const outcome = await createOpenAiProvider({ llm: fakeLlm(['Add eprintln!("") there.']) }).predict(await eprintln());
    expect(outcome.prediction).toEqual({
      actual_output: 'Add eprintln!("") there.',
      error: 'the reply has no <|editable_region_start|> marker; expected the rewritten region between them, or NO_EDITS',
      provider: 'openai',
    });
    expect(outcome.prediction.actual_patch).toBeUndefined();
  });

  it('lets a failed model call propagate so the activity can retry it', async () => {
    const failing = createOpenAiProvider({ llm: fakeLlm([new LlmError('429 Too Many Requests', 429, true)]) });
    await expect(failing.predict(await eprintln())).rejects.toThrow(LlmError);
  });

  it('needs prompt inputs', async () => {
    const example = await eprintln();
    await expect(createOpenAiProvider({ llm: fakeLlm([]) }).predict({ ...example, prompt_inputs: undefined })).rejects.toThrow(
      'zed--add-eprintln: prompt_inputs.cursor_excerpt is required to predict',
    );
  });
});

describe('predictionFromReply on a CRLF excerpt', () => {
  const excerpt = 'fn main() {\r\n    let x = 1;\r\n}\r\n';
  const layout = { cursorPath: 'src/main.rs', excerpt, excerptStartRow: 0, cursor: 0, editable: { start: 0, end: excerpt.length }, context: { start: 0, end: excerpt.length } };

  it('reads an LF reply as CRLF, moving its cursor by the CRs before it', () => {
    const reply = '<|editable_region_start|>\nfn main() {\n    let x = 1;\n    let y<|user_cursor|> = 2;\n}\n\n<|editable_region_end|>';
    const prediction = predictionFromReply(reply, layout, 'openai');
    expect(prediction.actual_patch).toBe('--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\r\n     let x = 1;\r\n+    let y = 2;\r\n }\r\n');
    // "fn main() {\r\n    let x = 1;\r\n    let y": two CRs more than in the LF reply.
    expect(prediction.actual_cursor).toMatchObject({ row: 2, column: 9, editable_region_offset: 29 + 9 });
  });

  it('keeps a reply that has CRLFs of its own as it is', () => {
    const reply = '<|editable_region_start|>\nfn main() {\r\n    let x = 2;\n}\r\n\n<|editable_region_end|>';
    expect(predictionFromReply(reply, layout, 'openai').actual_patch).toBe('--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\r\n-    let x = 1;\r\n+    let x = 2;\n }\r\n');
  });
});
