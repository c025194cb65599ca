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

/** The last details each running activity reported, so timer heartbeats repeat them instead of erasing them. */
const lastDetails = new WeakMap<Context, unknown>();

/**
 * Heartbeats with `details` (shown in the Web UI as the activity's heartbeat details, e.g.
 * what it waits for). Without details, repeats the last ones given.
 */
export function heartbeat(details?: unknown): void {
  try {
    const context = Context.current();
    // A local activity lives inside its workflow task, which the worker keeps alive: nothing to heartbeat.
    if (context.info.isLocal) return;
    if (details !== undefined) lastDetails.set(context, details);
    context.heartbeat(lastDetails.get(context));
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

/** Every activity heartbeats at least this often, so a dead worker is noticed within the heartbeat timeout. */
export const HEARTBEAT_EVERY_MS = 2_000;

/** Heartbeats every few seconds while `work` runs, so long commands and model calls do not look dead. */
export async function heartbeatWhile<T>(work: () => Promise<T>, everyMs = HEARTBEAT_EVERY_MS): Promise<T> {
  heartbeat();
  const timer = setInterval(() => heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
