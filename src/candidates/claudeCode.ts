import type { CliAdapter } from './adapter.js';
import { CLAUDE_FLAVORS, createClaudeStreamNormalizer } from './normalizers/claudeStream.js';
import { printStreamJsonArgs } from './printMode.js';
import { PREASSIGNED_RESUME_RULE, preassignedSessionArgs } from './preassignedSession.js';
import { skillAndTaskWorkflow } from './workflowConventions.js';

/**
 * Claude Code (`claude -p … --output-format stream-json --verbose`). Permissions for unattended
 * tool use that also work as root: `--permission-mode acceptEdits --allowedTools Bash,Write,Edit,Read,Skill,Task`
 * (`bypassPermissions` is refused as root unless IS_SANDBOX=1).
 */
export const claudeCode: CliAdapter = {
  name: 'claude-code',
  cli: 'Claude Code',
  executables: ['claude'],
  npmPackage: '@anthropic-ai/claude-code',
  setup: 'npm install -g @anthropic-ai/claude-code',
  versionArgs: ['--version'],
  workflow: skillAndTaskWorkflow({ agents: '.claude/agents', commands: '.claude/commands', rules: '.claude/rules', skills: '.claude/skills' }, 'CLAUDE.md'),
  sessionId: 'preassigned',
  prompt: 'argv',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  baseUrlVia: 'ANTHROPIC_BASE_URL',
  args: (ctx) => [
    ...printStreamJsonArgs(ctx),
    '--verbose',
    ...(ctx.model ? ['--model', ctx.model] : []),
    ...preassignedSessionArgs(ctx),
    '--permission-mode',
    'acceptEdits',
    '--allowedTools',
    'Bash,Write,Edit,Read,Skill,Task',
    ...ctx.extraArgs,
  ],
  textOnlyArgs: (ctx) => [
    ...printStreamJsonArgs(ctx),
    '--verbose',
    ...(ctx.model ? ['--model', ctx.model] : []),
    '--tools',
    '',
    '--max-turns',
    '1',
    '--no-session-persistence',
    ...ctx.extraArgs,
  ],
  env: (ctx) => ({
    ...(ctx.baseUrl ? { ANTHROPIC_BASE_URL: ctx.baseUrl } : {}),
    ...(ctx.apiKey ? { ANTHROPIC_API_KEY: ctx.apiKey } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
  }),
  homeFiles: () => ({}),
  createNormalizer: (options) => createClaudeStreamNormalizer(CLAUDE_FLAVORS['claude-code'], options),
  usageRule: 'result.usage is per invocation (input + cache reads/writes); total_cost_usd is per session, so cost is differenced',
  resumeRule: PREASSIGNED_RESUME_RULE,
};
