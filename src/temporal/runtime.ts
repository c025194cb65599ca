import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

/**
 * Installs the SDK runtime with a quiet logger (the default logs every worker state change at
 * INFO). Must run before the first NativeConnection or Worker; later calls do nothing.
 */
export function installQuietRuntime(level: LogLevel = (process.env.EVALFLOW_TEMPORAL_LOG as LogLevel | undefined) ?? 'WARN'): void {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // a runtime already exists (a test installed its own): keep it
  }
}
