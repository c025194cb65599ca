import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectSkillThenShell, LiveAgentCase, SHELL_COMMAND, toolNamed } from '../../support/liveAgent.js';

describe('opencode live under evalflow run (OpenAI chat completions mock, loopback namespace, ripgrep on PATH for its skill tool)', () => {
  const live = new LiveAgentCase({
    adapter: 'opencode',
    dialects: [],
    model: 'opencode-e2e',
    baseUrl: (mock) => mock.url,
    moves: {
      skill: (request) => ({ name: toolNamed(request, 'skill'), arguments: { name: 'node-test' } }),
      shell: (request) => ({ name: toolNamed(request, 'bash'), arguments: { command: SHELL_COMMAND, description: 'write hello.txt' } }),
    },
  });
  beforeAll(() => live.start(), 60_000);
  afterAll(() => live.stop());

  it('uses the skill in turn 1, resumes the session for a shell command in turn 2, with usage per turn', async () => {
    await expectSkillThenShell(live);
  }, 300_000);
});
