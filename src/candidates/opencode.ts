import type { CliAdapter, InvocationContext } from './adapter.js';
import { createOpencodeStreamNormalizer } from './normalizers/opencodeStream.js';
import { skillAndTaskWorkflow } from './workflowConventions.js';

/** Provider name evalflow declares for a custom base URL. */
const PROVIDER = 'evalflow';

/**
 * opencode (`opencode run --format json --thinking`). The provider, model, permissions and
 * autoupdate/share switches travel as inline config in OPENCODE_CONFIG_CONTENT (an env
 * variable, so the key stays in the environment). Its background `npm install
 * @opencode-ai/plugin` at start-up has no switch: run it in the loopback namespace.
 */
export const opencode: CliAdapter = {
  name: 'opencode',
  cli: 'opencode',
  executables: ['opencode'],
  npmPackage: 'opencode-ai',
  setup: 'npm install -g opencode-ai',
  versionArgs: ['--version'],
  // Rules have no folder of their own: they go into AGENTS.md, which opencode reads. So do
  // subagents: opencode refuses to start on a Claude-style agent file (`tools: Read, Bash` where
  // it wants an object), the format teams write them in.
  workflow: skillAndTaskWorkflow({ commands: '.opencode/commands', skills: '.opencode/skills' }, 'AGENTS.md'),
  sessionId: 'stream',
  prompt: 'argv',
  apiKeyEnv: 'OPENAI_API_KEY',
  baseUrlVia: 'OPENCODE_CONFIG_CONTENT provider (OpenAI-compatible)',
  args: (ctx) => ['run', '--format', 'json', '--thinking', ...modelFlag(ctx), ...(ctx.resume && ctx.sessionId ? ['-s', ctx.sessionId] : []), ...ctx.extraArgs, ctx.message],
  textOnlyArgs: (ctx) => ['run', '--format', 'json', '--agent', 'plan', ...modelFlag(ctx), ...ctx.extraArgs, ctx.message],
  env: (ctx) => ({
    OPENCODE_CONFIG_CONTENT: JSON.stringify(inlineConfig(ctx)),
    // Without a custom provider, opencode's own provider reads the key from its usual variable.
    ...(ctx.apiKey && !ctx.baseUrl ? { [ctx.apiKeyEnvName ?? 'OPENAI_API_KEY']: ctx.apiKey } : {}),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    // From opencode's documented variables (not verified live): no self-update, no LSP downloads.
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  }),
  homeFiles: () => ({}),
  createNormalizer: (options) => createOpencodeStreamNormalizer(options),
  usageRule: 'step_finish.tokens summed over the turn\'s steps (input + cache reads/writes)',
  resumeRule: 'session id (ses_…) read from sessionID; `opencode run -s <id>`',
};

function modelId(ctx: InvocationContext): string | undefined {
  if (ctx.baseUrl) return `${PROVIDER}/${ctx.model ?? 'default'}`;
  return ctx.model;
}

function modelFlag(ctx: InvocationContext): string[] {
  const model = modelId(ctx);
  return model ? ['-m', model] : [];
}

function inlineConfig(ctx: InvocationContext): Record<string, unknown> {
  const model = modelId(ctx);
  return {
    ...(ctx.baseUrl
      ? {
          provider: {
            [PROVIDER]: {
              npm: '@ai-sdk/openai-compatible',
              options: { baseURL: ctx.baseUrl, ...(ctx.apiKey ? { apiKey: ctx.apiKey } : {}) },
              models: { [ctx.model ?? 'default']: { tool_call: true, reasoning: true } },
            },
          },
        }
      : {}),
    ...(model ? { model, small_model: model } : {}),
    permission: { edit: 'allow', bash: 'allow', webfetch: 'allow' },
    autoupdate: false,
    share: 'disabled',
  };
}
