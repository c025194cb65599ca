import type { CliAdapter, InvocationContext } from './adapter.js';
import { createCodexStreamNormalizer } from './normalizers/codexStream.js';
import { agentsSkillsWorkflow } from './workflowConventions.js';

/** Codex ignores OPENAI_BASE_URL (0.171): a custom provider is declared with `-c` flags instead. */
const PROVIDER = 'evalflow';

/**
 * OpenAI Codex (`codex exec --json`). The thread id comes from `thread.started`; stdin is
 * closed (it would otherwise wait for more input). Analytics and plugins are off, which
 * silences every phone-home seen.
 */
export const codex: CliAdapter = {
  name: 'codex',
  cli: 'OpenAI Codex CLI',
  executables: ['codex'],
  npmPackage: '@openai/codex',
  setup: 'npm install -g @openai/codex',
  versionArgs: ['--version'],
  // AGENTS.md is loaded by Codex itself.
  workflow: agentsSkillsWorkflow,
  sessionId: 'stream',
  prompt: 'argv',
  apiKeyEnv: 'OPENAI_API_KEY',
  baseUrlVia: '-c model_providers.evalflow.base_url (Responses API)',
  args: (ctx) => [
    'exec',
    ...(ctx.resume && ctx.sessionId ? ['resume'] : []),
    '--json',
    '--skip-git-repo-check',
    '--dangerously-bypass-approvals-and-sandbox',
    ...commonFlags(ctx),
    ...ctx.extraArgs,
    ...(ctx.resume && ctx.sessionId ? [ctx.sessionId] : []),
    ctx.message,
  ],
  textOnlyArgs: (ctx) => ['exec', '--json', '--skip-git-repo-check', '--ephemeral', '-s', 'read-only', ...commonFlags(ctx), ...ctx.extraArgs, ctx.message],
  env: (ctx) => ({
    CODEX_HOME: `${ctx.homeDir}/.codex`,
    ...(ctx.apiKey ? { OPENAI_API_KEY: ctx.apiKey } : {}),
  }),
  // Codex refuses to start when CODEX_HOME does not exist; the settings themselves come as -c flags.
  homeFiles: () => ({ '.codex/config.toml': '# evalflow passes every setting as a -c flag\n' }),
  createNormalizer: (options) => createCodexStreamNormalizer(options),
  usageRule: 'turn.completed.usage is cumulative over the thread: differenced against the previous turn',
  resumeRule: 'thread id read from thread.started; `codex exec resume <thread_id>`',
};

function commonFlags(ctx: InvocationContext): string[] {
  const provider = ctx.baseUrl
    ? [
        `model_provider="${PROVIDER}"`,
        `model_providers.${PROVIDER}.name="${PROVIDER}"`,
        `model_providers.${PROVIDER}.base_url=${JSON.stringify(ctx.baseUrl)}`,
        `model_providers.${PROVIDER}.env_key="OPENAI_API_KEY"`,
        `model_providers.${PROVIDER}.wire_api="responses"`,
      ]
    : [];
  return [
    ...['analytics.enabled=false', 'features.plugins=false', ...provider].flatMap((setting) => ['-c', setting]),
    ...(ctx.model ? ['-m', ctx.model] : []),
  ];
}
