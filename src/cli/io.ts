import { createInterface } from 'node:readline';

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
  /**
   * Asks one question on the terminal and resolves with the answer line ('' for Enter, null
   * for Ctrl-C at the prompt). Absent without a terminal: commands then take their default.
   */
  ask?(question: string): Promise<string | null>;
}

export function processIo(): CommandIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    env: process.env,
    ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: askOnTerminal } : {}),
  };
}

function askOnTerminal(question: string): Promise<string | null> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  return new Promise<string | null>((resolve) => {
    rl.once('SIGINT', () => {
      process.stderr.write('\n');
      resolve(null);
    });
    rl.once('close', () => resolve(null));
    rl.question(question, (answer) => resolve(answer));
  }).finally(() => {
    rl.close();
    // The terminal must not keep the process alive once the command is done.
    process.stdin.pause();
  });
}

/**
 * The same io with every line on stderr: a command printing one JSON document (`--json`)
 * keeps its progress, tables and reports for people there, and stdout for the document.
 */
export function linesToStderr(io: CommandIo): CommandIo {
  return { ...io, out: (line) => io.err(line) };
}

/** An in-memory CommandIo for tests. */
export function memoryIo(cwd: string, env: NodeJS.ProcessEnv = {}): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), cwd, env };
}
