import type { CliAdapter } from './adapter.js';
import { createGeminiStreamNormalizer } from './normalizers/geminiStream.js';
import { printStreamJsonArgs } from './printMode.js';
import { PREASSIGNED_RESUME_RULE, preassignedSessionArgs } from './preassignedSession.js';

/** Written into the private HOME: API-key auth, usage statistics and auto-update off. */
const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/** Google Gemini CLI (`gemini -p … --output-format stream-json --yolo --skip-trust`); stdin closed. */
export const gemini: CliAdapter = {
  name: 'gemini',
  cli: 'Gemini CLI',
  executables: ['gemini'],
  npmPackage: '@google/gemini-cli',
  setup: 'npm install -g @google/gemini-cli',
  versionArgs: ['--version'],
  // Gemini's custom commands are TOML, not Markdown: commands and rules go into GEMINI.md.
  // Subagents in .gemini/agents are offered to the model as tools named after them.
  workflow: {
    native: { agents: '.gemini/agents', skills: '.gemini/skills' },
    contextFile: 'GEMINI.md',
    skillTool: true,
    skillReadInvokes: false,
    subagents: 'named',
    slashCommands: false,
    silentRules: true,
    observable: true,
  },
  sessionId: 'preassigned',
  prompt: 'argv',
  apiKeyEnv: 'GEMINI_API_KEY',
  baseUrlVia: 'GOOGLE_GEMINI_BASE_URL',
  args: (ctx) => [
    ...printStreamJsonArgs(ctx),
    '--yolo',
    '--skip-trust',
    ...(ctx.model ? ['-m', ctx.model] : []),
    ...preassignedSessionArgs(ctx),
    ...ctx.extraArgs,
  ],
  textOnlyArgs: (ctx) => [...printStreamJsonArgs(ctx), '--approval-mode', 'plan', '--skip-trust', ...(ctx.model ? ['-m', ctx.model] : []), ...ctx.extraArgs],
  env: (ctx) => ({
    ...(ctx.baseUrl ? { GOOGLE_GEMINI_BASE_URL: ctx.baseUrl } : {}),
    ...(ctx.apiKey ? { GEMINI_API_KEY: ctx.apiKey } : {}),
  }),
  homeFiles: () => ({ '.gemini/settings.json': `${JSON.stringify(SETTINGS, null, 2)}\n` }),
  createNormalizer: (options) => createGeminiStreamNormalizer(options),
  usageRule: 'result.stats per invocation',
  resumeRule: PREASSIGNED_RESUME_RULE,
};
