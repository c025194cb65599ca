import { DefaultLogger, makeTelemetryFilterString, Runtime, type LogEntry, type LogLevel } from '@temporalio/worker';

let installed = false;

/**
 * Installs the SDK runtime with a quiet, one-line logger: the default prints every worker
 * state change at INFO and whole error objects for each retried activity. Must run before the
 * first NativeConnection or Worker; later calls do nothing.
 *
 * The native side's logs are forwarded through the same logger, so its retries of calls to a
 * server that went away (one warning per poller per retry, with ANSI colours) can be dropped:
 * the commands say once that Temporal is unreachable and once that it is back.
 *
 * Signals are left to the commands: by default the SDK stops every worker on the first
 * Ctrl-C, so the in-process worker of `evalflow run` would be gone before the cancelled runs
 * could record themselves and clean up, and the command would wait for them forever.
 */
export function installQuietRuntime(level: LogLevel = (process.env.EVALFLOW_TEMPORAL_LOG as LogLevel | undefined) ?? 'WARN'): void {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({
      shutdownSignals: [],
      telemetryOptions: { logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) } },
      logger: new DefaultLogger(level, (entry) => {
        // The host queue serves activities only, by design.
        if (entry.message.startsWith('No workflows registered')) return;
        if (isRetryNoise(entry)) return;
        process.stderr.write(`${formatLogEntry(entry)}\n`);
      }),
    });
  } catch {
    // a runtime already exists (a test installed its own): keep it
  }
}

/** `temporal warn: Activity failed (judgeRun, run-x, attempt 2): HTTP 429 slow down` */
export function formatLogEntry(entry: LogEntry): string {
  const meta = entry.meta ?? {};
  const context = [meta.activityType, meta.workflowType && !meta.activityType ? meta.workflowType : undefined, meta.workflowId, meta.attempt ? `attempt ${String(meta.attempt)}` : undefined]
    .filter((part) => part !== undefined && part !== '')
    .map(String);
  const error = meta.error instanceof Error ? meta.error.message : meta.error !== undefined ? String(meta.error) : '';
  return `temporal ${entry.level.toLowerCase()}: ${compactStatus(entry.message)}${context.length ? ` (${context.join(', ')})` : ''}${error ? `: ${compactStatus(error)}` : ''}`;
}

/** Core's `Status { code: Unavailable, message: "tcp connect error", source: Some(…) }` as `Unavailable (tcp connect error)`. */
function compactStatus(text: string): string {
  return text.replace(/Status \{ code: (\w+), message: "([^"]*)".*$/s, '$1 ($2)');
}

/**
 * While the server is away, core warns on every retried poll (`gRPC call poll_workflow_task_queue
 * retried 9 times`) and every failed heartbeat; the commands say it once instead.
 */
function isRetryNoise(entry: LogEntry): boolean {
  const unavailable = (text: string) => /code: Unavailable|connect error|transport error/i.test(text);
  if (/^gRPC call \w+ retried \d+ times/.test(entry.message)) return unavailable(String(entry.meta?.error ?? ''));
  return entry.message.startsWith('Error when recording heartbeat') && unavailable(entry.message);
}
