import { Context } from '@temporalio/activity';

/** The workflow id and run id of the calling workflow, when running inside an activity. */
export function temporalIds(): { workflowId: string | null; runId: string | null } {
  try {
    const info = Context.current().info;
    return { workflowId: info.workflowExecution?.workflowId ?? null, runId: info.workflowExecution?.runId ?? null };
  } catch {
    return { workflowId: null, runId: null };
  }
}

/** This activity's attempt number (1 on the first try). */
export function activityAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

export function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // outside an activity (unit tests): nothing to heartbeat
  }
}

export function cancellationSignal(): AbortSignal {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return new AbortController().signal;
  }
}

/** Heartbeats every few seconds while `work` runs, so long shell commands do not look dead. */
export async function heartbeatWhile<T>(work: () => Promise<T>, everyMs = 5_000): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
