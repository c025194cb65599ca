import { CASE_VARIABLES, findUnknownVariables } from './expandVariables.js';
import { checkYamlShape, parseYamlFile, sortByLine } from './parseYamlFile.js';
import type { YamlFile } from './parseYamlFile.js';
import { EnvSchema } from './schema.js';
import type { Env } from './schema.js';

/**
 * Parse env.yaml. Every key is optional and an empty file is a valid env. Commands may use
 * only the case variables in braces; `${ANYTHING_ELSE}` is a problem, plain `$VAR` is not.
 */
export function parseEnv(text: string, file: string): { env?: Env; problems: string[] } {
  const yaml = parseYamlFile(text, file);
  if (yaml.data === undefined && yaml.problems.length > 0) return { problems: yaml.problems };
  const data = yaml.data ?? {};

  const checked = checkYamlShape(EnvSchema, data, yaml, file);
  const problems = sortByLine([...checked.problems, ...variableProblems(data, yaml, file)], file);
  return problems.length > 0 ? { problems } : { env: checked.value, problems };
}

const known = CASE_VARIABLES.map((name) => `\${${name}}`);
const knownList = `${known.slice(0, -1).join(', ')} or ${known.at(-1) ?? ''}`;

/** Looks at the raw data so that variable problems are reported even when the shape is wrong. */
function variableProblems(data: unknown, yaml: YamlFile, file: string): string[] {
  const problems: string[] = [];
  for (const [path, command] of commandsOf(data)) {
    for (const variable of findUnknownVariables(command)) {
      const line = yaml.lineOf(path);
      const bare = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(variable) ? ` (write $${variable.slice(2, -1)} without braces for a shell variable)` : '';
      problems.push(`${line === undefined ? file : `${file}:${line}`}: ${path.join('.')}: unknown variable ${variable}; expected ${knownList}${bare}`);
    }
  }
  return problems;
}

/** Every shell command in env.yaml with its field path, e.g. `preconditions.0.check`. */
function commandsOf(data: unknown): [(string | number)[], string][] {
  if (data === null || typeof data !== 'object') return [];
  const env = data as Record<string, unknown>;
  const found: [(string | number)[], string][] = [];
  for (const key of ['setup_commands', 'post_run_cleanup']) {
    listOf(env[key]).forEach((command, index) => {
      if (typeof command === 'string') found.push([[key, index], command]);
    });
  }
  for (const key of ['preconditions', 'postconditions']) {
    listOf(env[key]).forEach((condition, index) => {
      const check = (condition as { check?: unknown } | null)?.check;
      if (typeof check === 'string') found.push([[key, index, 'check'], check]);
    });
  }
  return found;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
