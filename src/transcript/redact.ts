/** Env var names whose values are treated as secrets wherever they might leak. */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

/** Whether an environment variable of this name holds a secret (API keys, tokens, passwords). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export interface Redactor {
  (text: string): string;
  /** How many distinct secret values this redactor knows. */
  readonly size: number;
}

/**
 * Replaces secret values (API keys and anything in a secret-looking env var, plus explicitly
 * named ones) with `[REDACTED:NAME]`, so transcripts, logs and HTML never carry them even
 * when an agent prints its environment.
 */
export function createRedactor(env: NodeJS.ProcessEnv, explicitNames: readonly string[] = []): Redactor {
  const secrets = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 8) continue; // short values would redact ordinary words
    if (isSecretName(name) || explicitNames.includes(name)) secrets.set(value, name);
  }
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  const redact = ((text: string) => {
    let out = text;
    for (const [value, name] of ordered) if (out.includes(value)) out = out.split(value).join(`[REDACTED:${name}]`);
    return out;
  }) as Redactor;
  Object.defineProperty(redact, 'size', { value: ordered.length });
  return redact;
}
