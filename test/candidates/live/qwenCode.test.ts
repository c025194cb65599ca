import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectSkillThenShell, LiveAgentCase, SHELL_COMMAND, toolNamed } from '../../support/liveAgent.js';

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
    await expectSkillThenShell(live);
  }, 300_000);
});
