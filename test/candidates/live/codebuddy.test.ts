import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectSkillThenShell, LiveAgentCase, SHELL_COMMAND, toolNamed } from '../../support/liveAgent.js';

describe('CodeBuddy Code live under evalflow run (OpenAI chat completions mock, loopback namespace)', () => {
  const live = new LiveAgentCase({
    adapter: 'codebuddy',
    dialects: [],
    model: 'codebuddy-e2e',
    baseUrl: (mock) => mock.url,
    moves: {
      skill: (request) => ({ name: toolNamed(request, 'Skill'), arguments: { skill: 'node-test' } }),
      shell: (request) => ({ name: toolNamed(request, 'Bash'), arguments: { command: SHELL_COMMAND, description: 'write hello.txt' } }),
    },
  });
  beforeAll(() => live.start(), 60_000);
  afterAll(() => live.stop());

  it('uses the skill in turn 1, resumes the session for a shell command in turn 2, with usage per turn', async () => {
    await expectSkillThenShell(live);
  }, 300_000);
});
