import type { ProcessExit, TurnOutcome } from '../adapter.js';
import { asString, type JsonObject } from './jsonLine.js';
import { turnFailure } from './turnFailure.js';

/**
 * The failure rule of streams that end in a Claude-style `result` event (the Claude Code
 * family, Cursor): the event is missing, or it reports an error (`is_error`, or a subtype other
 * than `success`). `detail` is what the stream said of the error.
 */
export function resultEventFailure(exit: ProcessExit, result: JsonObject | undefined, detail: string | undefined): TurnOutcome['failure'] {
  const reported = result && (result.is_error === true || (result.subtype !== undefined && result.subtype !== 'success'));
  return turnFailure(exit, {
    terminalSeen: result !== undefined,
    terminalName: 'result',
    ...(reported ? { error: `${asString(result?.subtype) ?? 'error'}: ${detail ?? 'the agent reported an error'}` } : {}),
  });
}
