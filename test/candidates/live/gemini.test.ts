import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiGenerateContentDialect } from '../../../src/llm/mock/geminiGenerateContent.js';
import { expectTurnsEndedResumedWithSkill, LiveAgentCase, SHELL_CALL_ID, SHELL_COMMAND, SKILL_CALL_ID, toolNamed, twoTurnFacts } from '../../support/liveAgent.js';

describe('Gemini CLI live under evalflow run (Gemini generateContent mock, loopback namespace)', () => {
  const live = new LiveAgentCase({
    adapter: 'gemini',
    dialects: [geminiGenerateContentDialect],
    model: 'gemini-e2e',
    baseUrl: (mock) => mock.origin,
    moves: {
      skill: (request) => ({ name: toolNamed(request, 'activate_skill'), arguments: { name: 'node-test' } }),
      shell: (request) => ({ name: toolNamed(request, 'run_shell_command'), arguments: { command: SHELL_COMMAND, description: 'write hello.txt', is_background: false } }),
    },
  });
  beforeAll(() => live.start(), 60_000);
  afterAll(() => live.stop());

  it('uses the skill in turn 1, resumes the session for a shell command in turn 2, with usage per turn', async () => {
    const result = await live.run();
    expect(result.output, result.output).toMatch(/skill-then-shell\s+completed\s+pass/);
    expect(result.exitCode).toBe(0);
    const facts = twoTurnFacts(live, result);
    // Gemini CLI keeps the model's call id behind the tool's name; its stream carries no exit code.
    expect(facts.started).toEqual([
      { turn: 1, id: `activate_skill__${SKILL_CALL_ID}`, kind: 'skill' },
      { turn: 2, id: `run_shell_command__${SHELL_CALL_ID}`, kind: 'shell' },
    ]);
    expect(facts.completed).toEqual([
      { turn: 1, id: `activate_skill__${SKILL_CALL_ID}`, kind: 'skill', exit_code: undefined },
      { turn: 2, id: `run_shell_command__${SHELL_CALL_ID}`, kind: 'shell', exit_code: null },
    ]);
    expect(facts.shellSummary).toBe('shell: echo hello-from-agent > hello.txt && cat hello.txt → ok · out: hello-from-agent');
    expectTurnsEndedResumedWithSkill(facts);
  }, 300_000);
});
