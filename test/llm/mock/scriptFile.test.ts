import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/errors.js';
import { loadEvalCase } from '../../../src/evalset/index.js';
import { JudgeAnswerSchema } from '../../../src/judge/index.js';
import { loadMockScript, MockScriptFileSchema, scriptFromRules } from '../../../src/llm/mock/scriptFile.js';
import type { MockMessage, MockRequest } from '../../../src/llm/mock/types.js';

const DEMO_SCRIPT = fileURLToPath(new URL('../../../examples/mock/demo.yaml', import.meta.url));

function aRequest(overrides: Partial<MockRequest> & { messages?: MockMessage[] } = {}): MockRequest {
  return { dialect: 'openai-chat', model: 'm', system: '', messages: [], tools: [], stream: false, body: {}, headers: {}, ...overrides };
}

/** A conversation with `assistants` earlier assistant turns, ending in a user message. */
function conversation(first: string, assistants: number): MockMessage[] {
  const messages: MockMessage[] = [{ role: 'user', content: first }];
  for (let i = 0; i < assistants; i++) messages.push({ role: 'assistant', content: `a${i}` }, { role: 'user', content: `u${i}` });
  return messages;
}

const script = (rules: unknown) => scriptFromRules(MockScriptFileSchema.parse({ rules }));

async function scriptFile(content: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'evalflow-mockscript-')), 'script.yaml');
  await writeFile(path, content);
  return path;
}

describe('scriptFromRules: matching', () => {
  const rules = [
    { name: 'by model', match: { model: 'judge' }, replies: [{ text: 'judge reply' }] },
    { name: 'by first user', match: { first_user_contains: 'truncate' }, replies: [{ text: 'truncate reply' }] },
    { name: 'by contains', match: { contains: 'needle' }, replies: [{ text: 'needle reply' }] },
  ];

  it('matches the exact model name only', async () => {
    expect(await script(rules)(aRequest({ model: 'judge' }))).toEqual({ text: 'judge reply' });
    expect(await script(rules)(aRequest({ model: 'judge-2', messages: conversation('needle', 0) }))).toEqual({ text: 'needle reply' });
  });

  it('matches first_user_contains against the first user message only', async () => {
    expect(await script(rules)(aRequest({ messages: conversation('please truncate this', 0) }))).toEqual({ text: 'truncate reply' });
    const later = [...conversation('hello', 1), { role: 'user' as const, content: 'truncate now' }];
    expect(await script(rules)(aRequest({ messages: later }))).toMatchObject({ status: 400 });
  });

  it('matches contains against the system prompt or any message', async () => {
    expect(await script(rules)(aRequest({ system: 'the needle is here' }))).toEqual({ text: 'needle reply' });
    expect(await script(rules)(aRequest({ messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: 'found needle', toolCallId: 'c' }] }))).toEqual({
      text: 'needle reply',
    });
  });

  it('skips a rule whose lacks text is anywhere in the request', async () => {
    const lacking = script([
      { name: 'without the workflow', match: { model: 'cand', lacks: "The team's workflow" }, replies: [{ text: 'guessing' }] },
      { name: 'with it', match: { model: 'cand' }, replies: [{ text: 'following the workflow' }] },
    ]);
    expect(await lacking(aRequest({ model: 'cand', system: "You are an agent.\n\nThe team's workflow: …" }))).toEqual({ text: 'following the workflow' });
    expect(await lacking(aRequest({ model: 'cand', system: 'You are an agent.' }))).toEqual({ text: 'guessing' });
  });

  it('requires every condition of a rule and takes the first rule that fits', async () => {
    const both = script([
      { name: 'both', match: { model: 'cand', first_user_contains: 'slug' }, replies: [{ text: 'both' }] },
      { name: 'model only', match: { model: 'cand' }, replies: [{ text: 'model only' }] },
      { name: 'slug only', match: { first_user_contains: 'slug' }, replies: [{ text: 'never reached for cand' }] },
    ]);
    expect(await both(aRequest({ model: 'cand', messages: conversation('fix slug', 0) }))).toEqual({ text: 'both' });
    expect(await both(aRequest({ model: 'cand', messages: conversation('other', 0) }))).toEqual({ text: 'model only' });
    expect(await both(aRequest({ model: 'x', messages: conversation('slug', 0) }))).toEqual({ text: 'never reached for cand' });
  });

  it('answers 400 with a clear message when no rule fits', async () => {
    const reply = await script(rules)(aRequest({ model: 'mystery', messages: conversation('a "quoted" question', 0) }));
    expect(reply).toEqual({ status: 400, errorMessage: 'mock script has no rule for model \'mystery\' (first user message: "a \\"quoted\\" question")' });
  });
});

describe('scriptFromRules: picking the reply', () => {
  const steps = [{ text: 'zero' }, { text: 'one' }, { text: 'two' }];

  it('picks the reply by the number of assistant messages', async () => {
    const s = script([{ name: 'r', match: {}, replies: steps }]);
    const texts = [];
    for (let n = 0; n < 3; n++) texts.push((await s(aRequest({ messages: conversation('q', n) }))).text);
    expect(texts).toEqual(['zero', 'one', 'two']);
  });

  it('clamps to the last reply once the replies run out', async () => {
    const s = script([{ name: 'r', match: {}, replies: steps }]);
    expect((await s(aRequest({ messages: conversation('q', 7) }))).text).toBe('two');
  });

  it('shifts by start, and answers earlier requests with the first reply', async () => {
    const s = script([{ name: 'r', match: {}, start: 2, replies: steps }]);
    expect((await s(aRequest({ messages: conversation('q', 0) }))).text).toBe('zero');
    expect((await s(aRequest({ messages: conversation('q', 2) }))).text).toBe('zero');
    expect((await s(aRequest({ messages: conversation('q', 3) }))).text).toBe('one');
    expect((await s(aRequest({ messages: conversation('q', 9) }))).text).toBe('two');
  });

  it('gives the same answer to the same request every time (retries are safe)', async () => {
    const s = script([{ name: 'r', match: {}, replies: steps }]);
    const request = aRequest({ messages: conversation('q', 1) });
    expect([(await s(request)).text, (await s(request)).text]).toEqual(['one', 'one']);
  });

  it('passes tool calls, reasoning and scripted errors through', async () => {
    const s = script([
      {
        name: 'tools',
        match: { model: 'tools' },
        replies: [{ reasoning: 'hm', tool_calls: [{ name: 'run_shell', arguments: { command: 'ls' } }, { name: 'raw', arguments: '{"a":1}' }] }],
      },
      { name: 'overloaded', match: { model: 'err' }, replies: [{ status: 503 }] },
    ]);
    expect(await s(aRequest({ model: 'tools' }))).toEqual({
      reasoning: 'hm',
      toolCalls: [
        { name: 'run_shell', arguments: { command: 'ls' } },
        { name: 'raw', arguments: '{"a":1}' },
      ],
    });
    expect(await s(aRequest({ model: 'err' }))).toEqual({ status: 503, errorMessage: "scripted error from rule 'overloaded'" });
  });
});

describe('loadMockScript', () => {
  it('loads a YAML script file', async () => {
    const path = await scriptFile('rules:\n  - name: hi\n    match: { model: m }\n    replies:\n      - text: hello\n');
    expect(await (await loadMockScript(path))(aRequest())).toEqual({ text: 'hello' });
  });

  it('names the file when the YAML does not parse', async () => {
    const path = await scriptFile('rules:\n  - name: [unclosed\n');
    const err = await loadMockScript(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as Error).message.startsWith(`${path}: not valid YAML: `)).toBe(true);
  });

  it.each([
    ['an unknown match key', 'rules:\n  - name: r\n    match: { modle: m }\n    replies: [{ text: x }]\n', 'rules.0.match: Unrecognized key: "modle"'],
    ['no replies', 'rules:\n  - name: r\n    match: {}\n    replies: []\n', 'rules.0.replies: Too small: expected array to have >=1 items'],
    ['a status below 400', 'rules:\n  - name: r\n    match: {}\n    replies: [{ status: 200 }]\n', 'rules.0.replies.0.status: Too small: expected number to be >=400'],
    ['a negative start', 'rules:\n  - name: r\n    match: {}\n    start: -1\n    replies: [{ text: x }]\n', 'rules.0.start: Too small: expected number to be >=0'],
    ['no rules', 'rules: []\n', 'rules: Too small: expected array to have >=1 items'],
    ['an empty file', '', '(root): Invalid input: expected object, received null'],
  ])('rejects %s, naming the file and the field', async (_label, content, problem) => {
    const path = await scriptFile(content);
    const err = await loadMockScript(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).problems).toEqual([`${path}: ${problem}`]);
  });
});

describe('examples/mock/demo.yaml', () => {
  it("loads, and every judge reply is a YAML verdict with one item per hard requirement of its case's rubric", async () => {
    await loadMockScript(DEMO_SCRIPT);
    const file = MockScriptFileSchema.parse(parseYaml(await readFile(DEMO_SCRIPT, 'utf8')));
    const judgeRules = file.rules.filter((rule) => rule.match.model === 'mock-judge');
    expect(judgeRules.length).toBeGreaterThanOrEqual(3);
    for (const rule of judgeRules) {
      const caseId = rule.match.contains!;
      const evalCase = await loadEvalCase(fileURLToPath(new URL(`../../../eval_sets/${caseId}`, import.meta.url)));
      for (const reply of rule.replies) {
        const answer = JudgeAnswerSchema.parse(parseYaml(reply.text ?? ''));
        expect(answer.hard_requirements, caseId).toHaveLength(evalCase.rubric.hard.length);
        for (const item of answer.hard_requirements) expect(item.evidence.trim()).not.toBe('');
      }
    }
  });
});
