import type { CliAdapter } from './adapter.js';
import { CLAUDE_FLAVORS, createClaudeStreamNormalizer } from './normalizers/claudeStream.js';
import { printStreamJsonArgs } from './printMode.js';
import { PREASSIGNED_RESUME_RULE, preassignedSessionArgs } from './preassignedSession.js';
import { skillAndTaskWorkflow } from './workflowConventions.js';

/** Written into the private HOME: usage statistics and auto-update off (no phone-home seen with these). */
const SETTINGS = { privacy: { usageStatisticsEnabled: false }, general: { enableAutoUpdate: false } };

/**
 * Qwen Code (`qwen -p … --output-format stream-json --yolo --auth-type openai`), a Gemini CLI
 * fork whose stream is Claude Code compatible; it talks OpenAI Chat Completions. stdin closed.
 */
export const qwenCode: CliAdapter = {
  name: 'qwen-code',
  cli: 'Qwen Code',
  executables: ['qwen'],
  npmPackage: '@qwen-code/qwen-code',
  setup: 'npm install -g @qwen-code/qwen-code',
  versionArgs: ['--version'],
  // Rules have no folder of their own: they go into QWEN.md, the context file Qwen Code reads.
  workflow: skillAndTaskWorkflow({ agents: '.qwen/agents', commands: '.qwen/commands', skills: '.qwen/skills' }, 'QWEN.md'),
  sessionId: 'preassigned',
  prompt: 'argv',
  apiKeyEnv: 'OPENAI_API_KEY',
  baseUrlVia: 'OPENAI_BASE_URL',
  args: (ctx) => [
    ...printStreamJsonArgs(ctx),
    '--yolo',
    '--auth-type',
    'openai',
    ...(ctx.model ? ['-m', ctx.model] : []),
    ...preassignedSessionArgs(ctx),
    ...ctx.extraArgs,
  ],
  textOnlyArgs: (ctx) => [...printStreamJsonArgs(ctx), '--approval-mode', 'plan', '--auth-type', 'openai', ...(ctx.model ? ['-m', ctx.model] : []), ...ctx.extraArgs],
  env: (ctx) => ({
    ...(ctx.baseUrl ? { OPENAI_BASE_URL: ctx.baseUrl } : {}),
    ...(ctx.apiKey ? { OPENAI_API_KEY: ctx.apiKey } : {}),
    ...(ctx.model ? { OPENAI_MODEL: ctx.model } : {}),
  }),
  homeFiles: () => ({ '.qwen/settings.json': `${JSON.stringify(SETTINGS, null, 2)}\n` }),
  createNormalizer: (options) => createClaudeStreamNormalizer(CLAUDE_FLAVORS['qwen-code'], options),
  usageRule: 'result.usage is cumulative over the session after a resume: differenced against the previous turn',
  resumeRule: PREASSIGNED_RESUME_RULE,
};
