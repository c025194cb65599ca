/** node's arguments that run this CLI again: set by its entry point, unset when commands run inside another program (tests). */
let launch: readonly string[] | undefined;

/** Called once by the CLI's entry point with its own flags and script (`process.execArgv`, `process.argv[1]`). */
export function registerSelfLaunch(args: readonly string[]): void {
  launch = args;
}

/** How to start this CLI as another process (a lingering store service); undefined when this process is not the CLI. */
export function selfLaunch(): readonly string[] | undefined {
  return launch;
}
