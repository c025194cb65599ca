import { join } from 'node:path';
import type { CliAdapter } from './adapter.js';

/**
 * Where `scripts/agent-clis.sh` installs each agent CLI: one npm prefix per CLI under
 * `${EVALFLOW_CACHE_DIR:-$HOME/.cache/evalflow}/agents`, outside any clone, so no user downloads
 * them as project dependencies. The executable paths are the script's, relative to the prefix.
 */
const CACHED_EXECUTABLES: Record<string, string> = {
  'claude-code': 'claude/node_modules/.bin/claude',
  'qwen-code': 'qwen/node_modules/.bin/qwen',
  opencode: 'opencode/node_modules/.bin/opencode',
  codebuddy: 'codebuddy/node_modules/@tencent-ai/agent-sdk/cli/bin/codebuddy',
  gemini: 'gemini/node_modules/.bin/gemini',
  codex: 'codex/node_modules/.bin/codex',
};

/** The agents cache folder for this environment. */
export function agentCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.EVALFLOW_CACHE_DIR ?? (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'evalflow') : env.HOME ? join(env.HOME, '.cache', 'evalflow') : undefined);
  return base === undefined ? undefined : join(base, 'agents');
}

/** The path the cache would hold the adapter's CLI at (whether or not it is installed), if the script installs it. */
export function cachedExecutable(adapterName: string, env: NodeJS.ProcessEnv): string | undefined {
  const relative = CACHED_EXECUTABLES[adapterName];
  const dir = agentCacheDir(env);
  return relative === undefined || dir === undefined ? undefined : join(dir, relative);
}

/** The names an adapter's CLI goes by on PATH, then its place in the agents cache. */
export function executablesOf(adapter: CliAdapter, hostEnv: NodeJS.ProcessEnv): string[] {
  const cached = cachedExecutable(adapter.name, hostEnv);
  return cached === undefined ? adapter.executables : [...adapter.executables, cached];
}
