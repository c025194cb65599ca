import type { ProcessExit, TurnOutcome } from '../adapter.js';
import { LIMITS, clip, oneLine } from './truncate.js';

/**
 * The one rule for a failed turn, shared by every stream family: the agent reported an
 * error, the stream ended without its terminal event, or the process exited non-zero.
 * Returns undefined when the turn succeeded.
 */
export function turnFailure(
  exit: ProcessExit,
  stream: { terminalSeen: boolean; terminalName: string; error?: string },
): TurnOutcome['failure'] {
  const reasons: string[] = [];
  if (stream.error) reasons.push(clip(oneLine(stream.error), LIMITS.errorMessage * 2));
  else if (!stream.terminalSeen) reasons.push(`the stream ended without its terminal \`${stream.terminalName}\` event`);
  if (exit.exitCode === null) reasons.push('the process was killed by a signal');
  else if (exit.exitCode !== 0) reasons.push(`the process exited with code ${exit.exitCode}`);
  if (reasons.length === 0) return undefined;
  return { message: reasons.join('; '), stderrTail: exit.stderrTail };
}
