import { tmpdir } from 'node:os';
import { ConfigError } from '../errors.js';
import type { CandidateSpec } from './adapter.js';

/**
 * The complete environment of a candidate process, scrubbed: PATH, HOME (the run's private
 * home), LANG and TMPDIR from the host, then what the adapter declares, then the spec's own
 * `env` (whose values may reference host variables as `${NAME}`). Nothing else of the host —
 * in particular none of its secrets — reaches the agent.
 */
export function buildCandidateEnv(options: {
  hostEnv: NodeJS.ProcessEnv;
  homeDir: string;
  adapterEnv: Record<string, string>;
  spec: CandidateSpec;
}): Record<string, string> {
  const { hostEnv, spec } = options;
  const env: Record<string, string> = {
    PATH: hostEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: options.homeDir,
    LANG: hostEnv.LANG ?? 'C.UTF-8',
    TMPDIR: hostEnv.TMPDIR ?? tmpdir(),
    ...options.adapterEnv,
  };
  for (const [name, value] of Object.entries(spec.env)) env[name] = expandHostVariables(value, hostEnv, `candidate "${spec.name}": env.${name}`);
  return env;
}

/**
 * The API key for a candidate: from the host variable the spec names, else from the adapter's
 * usual variable if the host has it. The value travels in the child's environment only.
 */
export function resolveApiKey(spec: CandidateSpec, hostEnv: NodeJS.ProcessEnv, fallbackEnv?: string): string | undefined {
  if (spec.apiKeyEnv) {
    const value = hostEnv[spec.apiKeyEnv];
    if (value === undefined || value === '') {
      throw new ConfigError(`candidate "${spec.name}": api_key_env names ${spec.apiKeyEnv}, but ${spec.apiKeyEnv} is not set in the environment`);
    }
    return value;
  }
  return fallbackEnv ? hostEnv[fallbackEnv] || undefined : undefined;
}

/** Replace `${NAME}` with the host's value; an unset variable is a configuration error. */
export function expandHostVariables(value: string, hostEnv: NodeJS.ProcessEnv, where: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = hostEnv[name];
    if (found === undefined) throw new ConfigError(`${where}: references \${${name}}, which is not set in the environment`);
    return found;
  });
}
