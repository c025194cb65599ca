import type { InvocationContext } from './adapter.js';

/**
 * The session flags of the CLIs whose session id evalflow chooses (`sessionId: 'preassigned'`):
 * Claude Code and the CLIs that copy its flags. Turn 1 names the new session, later turns resume it.
 */
export function preassignedSessionArgs(ctx: InvocationContext): string[] {
  return ctx.sessionId ? [ctx.resume ? '--resume' : '--session-id', ctx.sessionId] : [];
}

/** `CliAdapter.resumeRule` for the CLIs that use `preassignedSessionArgs`. */
export const PREASSIGNED_RESUME_RULE = '--session-id <uuid from run id> on turn 1, then --resume <uuid>';
