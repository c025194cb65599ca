import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../src/llm/mock/types.js';
import { openAiResponsesDialect } from '../../../src/llm/mock/openAiResponses.js';
import { LiveAgentCase, SHELL_COMMAND, toolNamed, twoTurnFacts } from '../../support/liveAgent.js';

describe('Codex live under evalflow run (OpenAI Responses mock, loopback namespace)', () => {
  const live = new LiveAgentCase({
    adapter: 'codex',
    dialects: [openAiResponsesDialect],
    model: 'codex-e2e',
    baseUrl: (mock) => mock.url,
    moves: {
      skill: (request) => shellCall(request, 'sed -n 1,200p .agents/skills/node-test/SKILL.md'),
      shell: (request) => shellCall(request, SHELL_COMMAND),
    },
  });
  beforeAll(() => live.start(), 60_000);
  afterAll(() => live.stop());

  it('uses the skill in turn 1, resumes the session for a shell command in turn 2, with usage per turn', async () => {
    const result = await live.run();
    expect(result.output, result.output).toMatch(/skill-then-shell\s+completed\s+pass/);
    expect(result.exitCode).toBe(0);
    const facts = twoTurnFacts(live, result);
    // Codex has no skill tool: turn 1 reads the SKILL.md through its shell. Its item ids are its own.
    expect(facts.started.map(({ turn, kind }) => ({ turn, kind }))).toEqual([
      { turn: 1, kind: 'shell' },
      { turn: 2, kind: 'shell' },
    ]);
    expect(facts.completed.map(({ id }) => id)).toEqual(facts.started.map(({ id }) => id));
    expect(facts.completed.map(({ exit_code }) => exit_code)).toEqual([0, 0]);
    expect(facts.summaries[0]).toMatch(/^shell: sed -n 1,200p \.agents\/skills\/node-test\/SKILL\.md → exit=0 · out: /);
    expect(facts.summaries[1]).toBe('shell: echo hello-from-agent > hello.txt && cat hello.txt → exit=0 · out: hello-from-agent');
    expect(facts.finals).toEqual(['Turn 1 done: the skill asks for node:test.', 'Turn 2 done.']);
    expect(facts.resumed).toBe(true);
    expect(facts.usage).toEqual(facts.expectedUsage.map((u) => expect.objectContaining(u)));
    expect(facts.skill).toMatchObject({ loaded: 'yes', invoked: 'yes', first_turn: 1 });
    expect(facts.skillBodySent).toBe(true);
    expect(facts.skill?.evidence).toMatch(/^\[Turn 1\] shell: sed -n 1,200p \.agents\/skills\/node-test\/SKILL\.md → exit=0/);
  }, 300_000);
});

/** Codex's shell tool: `shell` takes an argv, `exec_command` a command line (it depends on the model family). */
function shellCall(request: MockRequest, command: string) {
  const name = toolNamed(request, 'shell', 'exec_command');
  return { name, arguments: name === 'shell' ? { command: ['bash', '-lc', command] } : { cmd: command } };
}
