import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveAgentCase, SHELL_CALL_ID, SHELL_COMMAND, SKILL_CALL_ID, toolNamed, twoTurnFacts } from '../../support/liveAgent.js';

describe('Qwen Code live under evalflow run (OpenAI chat completions mock, loopback namespace)', () => {
  const live = new LiveAgentCase({
    adapter: 'qwen-code',
    dialects: [],
    model: 'qwen-e2e',
    baseUrl: (mock) => mock.url,
    moves: {
      skill: (request) => ({ name: toolNamed(request, 'skill'), arguments: { skill: 'node-test' } }),
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
    expect(facts.started).toEqual([
      { turn: 1, id: SKILL_CALL_ID, kind: 'skill' },
      { turn: 2, id: SHELL_CALL_ID, kind: 'shell' },
    ]);
    expect(facts.completed).toEqual([
      { turn: 1, id: SKILL_CALL_ID, kind: 'skill', exit_code: undefined },
      { turn: 2, id: SHELL_CALL_ID, kind: 'shell', exit_code: 0 },
    ]);
    expect(facts.shellSummary).toMatch(/^shell: echo hello-from-agent > hello.txt && cat hello.txt → exit=0/);
    expect(facts.finals).toEqual(['Turn 1 done: the skill asks for node:test.', 'Turn 2 done.']);
    expect(facts.resumed).toBe(true);
    expect(facts.usage).toEqual(facts.expectedUsage.map((u) => expect.objectContaining(u)));
    expect(facts.skill).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
    expect(facts.skillBodySent).toBe(true);
    expect(facts.skill?.evidence).toMatch(/^\[Turn 1\] skill: node-test/);
  }, 300_000);
});
