import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO = resolve(import.meta.dirname, '../..');
const CLIENT = resolve(REPO, 'src/client.ts');
// Resolved here: a bare `tsx` would be looked up from the process's working directory.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  /** Every line printed so far, stdout and stderr in arrival order. */
  lines: string[];
  stdout: string[];
  stderr: string[];
  /** Resolves with the first line (already printed or still to come) that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** The signal that ended the process, once it has ended by one. */
  exitSignal: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * `evalflow <args>` as its own process (`node --import tsx src/client.ts`), the way a user
 * runs it, so a test can kill it with SIGKILL or SIGINT mid-way and start it again.
 */
export function startCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): CliProcess {
  return startTsProcess(CLIENT, args, options);
}

/** Any TypeScript entry point as its own process, with the same line collection as the CLI's. */
export function startTsProcess(script: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): CliProcess {
  const child = spawn(process.execPath, ['--import', TSX, script, ...args], {
    cwd: options.cwd,
    // Unless a test asks for one, no lingering store service outlives it.
    env: { EVALFLOW_STORE_LINGER: '0', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { pattern: RegExp; resolve(line: string): void }[] = [];
  const collect = (into: string[]) => {
    let buffer = '';
    return (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let newline = buffer.indexOf('\n');
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        into.push(line);
        lines.push(line);
        for (const waiter of [...waiters]) {
          if (waiter.pattern.test(line)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(line);
          }
        }
        newline = buffer.indexOf('\n');
      }
    };
  };
  child.stdout!.on('data', collect(stdout));
  child.stderr!.on('data', collect(stderr));
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code, signal) => {
      exitSignal = signal;
      done(code);
    }),
  );
  return {
    get exitSignal() {
      return exitSignal;
    },
    child,
    pid: child.pid!,
    lines,
    stdout,
    stderr,
    exited,
    waitForLine(pattern, timeoutMs = 60_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolveLine, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; got:\n${lines.slice(-40).join('\n')}`)), timeoutMs);
        waiters.push({
          pattern,
          resolve(line) {
            clearTimeout(timer);
            resolveLine(line);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`evalflow ${args.join(' ')} exited before printing a line matching ${pattern}; got:\n${lines.slice(-40).join('\n')}`));
        });
      });
    },
    kill(signal = 'SIGTERM') {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    },
  };
}
