import { generationOf } from './attempts.js';
import type { TranscriptEvent } from './schema.js';

/**
 * The events the judge and the examiner see: only the latest generation of the run (a run
 * restarted on another host started over), and within it examiner and system events as
 * written and, for each turn, only the candidate events of its highest attempt (a retried
 * candidate turn starts over from a restored sandbox, so earlier attempts did not happen for
 * the candidate).
 */
export function latestAttempts(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const generation = Math.max(0, ...events.map((event) => generationOf(event.attempt)));
  const current = events.filter((event) => generationOf(event.attempt) === generation);
  const latest = new Map<number, number>();
  for (const event of current) {
    if (!event.role.startsWith('candidate')) continue;
    latest.set(event.turn, Math.max(latest.get(event.turn) ?? 0, event.attempt));
  }
  const kept = current.filter((event) => !event.role.startsWith('candidate') || event.attempt === latest.get(event.turn));
  // Within a turn the examiner spoke first, whichever attempts wrote the events.
  return kept
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.turn - b.event.turn || Number(b.event.role === 'examiner') - Number(a.event.role === 'examiner') || a.index - b.index)
    .map(({ event }) => event);
}
