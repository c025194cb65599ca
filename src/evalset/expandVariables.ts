/**
 * The variables an env.yaml command may use. Only the braced form `${NAME}` is ours: plain
 * shell `$VAR` is left for the shell, so cases can still use `$HOME` or `$PATH`.
 */
export const CASE_VARIABLES = ['SANDBOX_DIR', 'RUN_DIR', 'CASE_DIR'] as const;
export type CaseVariable = (typeof CASE_VARIABLES)[number];
export type CaseVariables = Record<CaseVariable, string>;

const BRACED = /\$\{([^}]*)\}/g;

/**
 * Replace `${SANDBOX_DIR}`, `${RUN_DIR}` and `${CASE_DIR}` in `text` with their values. Values
 * are inserted as they are (not shell-quoted), so cases write `"${SANDBOX_DIR}"` in quotes.
 * Anything else in braces is left untouched; `findUnknownVariables` reports it at validation.
 */
export function expandVariables(text: string, vars: CaseVariables): string {
  return text.replace(BRACED, (whole, name: string) => (isCaseVariable(name) ? vars[name] : whole));
}

/** Every `${...}` in `text` that is not one of CASE_VARIABLES, as written (e.g. `${HOME}`). */
export function findUnknownVariables(text: string): string[] {
  const unknown: string[] = [];
  for (const match of text.matchAll(BRACED)) {
    if (!isCaseVariable(match[1] ?? '')) unknown.push(match[0]);
  }
  return unknown;
}

export function isCaseVariable(name: string): name is CaseVariable {
  return (CASE_VARIABLES as readonly string[]).includes(name);
}
