/**
 * What a command may touch of the outside world. Only the CLI's output layer writes to the
 * terminal; commands receive this and return an exit code.
 */
export interface CommandIo {
  /** One line of normal output (stdout). */
  out(line: string): void;
  /** One line of diagnostics or progress (stderr). */
  err(line: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function processIo(): CommandIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    env: process.env,
  };
}

/** An in-memory CommandIo for tests. */
export function memoryIo(cwd: string, env: NodeJS.ProcessEnv = {}): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env };
}
