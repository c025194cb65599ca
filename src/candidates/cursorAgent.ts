import type { CliAdapter } from './adapter.js';
import { createCursorStreamNormalizer } from './normalizers/cursorStream.js';

/**
 * Cursor's agent CLI (`cursor-agent -p --output-format stream-json --force`). It is not on npm
 * and cannot use a custom model endpoint: inference always goes through Cursor's backend, so a
 * `base_url` is rejected by `createCliCandidate` (see `baseUrlVia`).
 */
export const cursorAgent: CliAdapter = {
  name: 'cursor-agent',
  cli: 'Cursor Agent CLI',
  executables: ['cursor-agent', 'agent'],
  setup: 'curl https://cursor.com/install -fsS | bash',
  versionArgs: ['--version'],
  // Not run here (no custom endpoint): the folders are Cursor's documented ones; its stream has
  // no skill or subagent call we have seen, so reading a SKILL.md is what shows a skill used.
  workflow: {
    native: { agents: '.cursor/agents', commands: '.cursor/commands', rules: '.cursor/rules', skills: '.cursor/skills' },
    contextFile: 'AGENTS.md',
    skillTool: false,
    skillReadInvokes: true,
    subagents: null,
    slashCommands: true,
    silentRules: true,
    observable: true,
  },
  sessionId: 'stream',
  prompt: 'argv',
  apiKeyEnv: 'CURSOR_API_KEY',
  baseUrlVia: '',
  args: (ctx) => [
    '-p',
    '--output-format',
    'stream-json',
    '--force',
    '--trust',
    '--workspace',
    ctx.sandboxDir,
    ...(ctx.model ? ['--model', ctx.model] : []),
    ...(ctx.resume && ctx.sessionId ? ['--resume', ctx.sessionId] : []),
    ...ctx.extraArgs,
    '--',
    ctx.message,
  ],
  textOnlyArgs: (ctx) => ['-p', '--output-format', 'stream-json', '--mode', 'ask', '--trust', '--workspace', ctx.sandboxDir, ...(ctx.model ? ['--model', ctx.model] : []), ...ctx.extraArgs, '--', ctx.message],
  env: (ctx) => ({ ...(ctx.apiKey ? { CURSOR_API_KEY: ctx.apiKey } : {}) }),
  homeFiles: () => ({}),
  createNormalizer: (options) => createCursorStreamNormalizer(options),
  usageRule: 'result.usage (camelCase, newer builds only) per invocation',
  resumeRule: 'chat id read from system/init; --resume <chat_id>',
};
