import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * What a failure says in words, for a run's error, a batch's failure list and the Web UI:
 * what an activity threw, with or without the activity wrapper's words.
 */

/** `prepareRun failed: SandboxError: …` for an activity's failure; the message of anything else. */
export function describeFailure(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return `${err.activityType} failed: ${causeText(err)}`;
  return err instanceof Error ? err.message : String(err);
}

/** What an activity threw, with its failure type (`SandboxError: …`), without the activity wrapper's words. */
export function causeText(err: unknown): string {
  const cause = causeOf(err);
  const type = cause instanceof ApplicationFailure && cause.type ? `${cause.type}: ` : '';
  return `${type}${causeMessage(err)}`;
}

/** The message of what an activity threw, without the activity wrapper's words. */
export function causeMessage(err: unknown): string {
  const cause = causeOf(err);
  return cause instanceof Error ? cause.message : String(cause);
}

function causeOf(err: unknown): unknown {
  return err instanceof ActivityFailure && err.cause ? err.cause : err;
}
