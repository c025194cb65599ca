import type { CliAdapter } from './adapter.js';
import { CLAUDE_FLAVORS, createClaudeStreamNormalizer } from './normalizers/claudeStream.js';
import { printStreamJsonArgs } from './printMode.js';
import { PREASSIGNED_RESUME_RULE, preassignedSessionArgs } from './preassignedSession.js';
import { skillAndTaskWorkflow } from './workflowConventions.js';

/**
 * Tencent CodeBuddy Code (`codebuddy -p … --output-format stream-json --verbose -y`), a Claude
 * Code clone that talks OpenAI Chat Completions. The standalone npm package 404s on the
 * registry seen here; the same CLI ships inside `@tencent-ai/agent-sdk` under `cli/bin/`.
 * DISABLE_TELEMETRY silences its reporting; its plugin-marketplace call has no switch.
 */
export const codebuddy: CliAdapter = {
  name: 'codebuddy',
  cli: 'CodeBuddy Code',
  executables: ['codebuddy', 'cbc'],
  npmPackage: '@tencent-ai/codebuddy-code',
  setup: 'npm install -g @tencent-ai/codebuddy-code (or @tencent-ai/agent-sdk, bin cli/bin/codebuddy)',
  versionArgs: ['--version'],
  workflow: skillAndTaskWorkflow({ agents: '.codebuddy/agents', commands: '.codebuddy/commands', rules: '.codebuddy/rules', skills: '.codebuddy/skills' }, 'CODEBUDDY.md'),
  sessionId: 'preassigned',
  prompt: 'argv',
  apiKeyEnv: 'CODEBUDDY_API_KEY',
  baseUrlVia: 'CODEBUDDY_BASE_URL',
  args: (ctx) => [
    ...printStreamJsonArgs(ctx),
    '--verbose',
    '-y',
    ...(ctx.model ? ['--model', ctx.model] : []),
    ...preassignedSessionArgs(ctx),
    ...ctx.extraArgs,
  ],
  textOnlyArgs: (ctx) => [...printStreamJsonArgs(ctx), '--verbose', '--permission-mode', 'plan', '--max-turns', '1', ...(ctx.model ? ['--model', ctx.model] : []), ...ctx.extraArgs],
  env: (ctx) => ({
    ...(ctx.baseUrl ? { CODEBUDDY_BASE_URL: ctx.baseUrl } : {}),
    ...(ctx.apiKey ? { CODEBUDDY_API_KEY: ctx.apiKey } : {}),
    ...(ctx.model ? { CODEBUDDY_MODEL: ctx.model } : {}),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
  }),
  homeFiles: () => ({}),
  createNormalizer: (options) => createClaudeStreamNormalizer(CLAUDE_FLAVORS.codebuddy, options),
  usageRule: 'result.usage is cumulative over the session after a resume: differenced against the previous turn',
  resumeRule: PREASSIGNED_RESUME_RULE,
};
