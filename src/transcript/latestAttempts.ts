import type { TranscriptEvent } from './schema.js';

/**
 * The events the judge and the examiner see: examiner and system events as written, and for
 * each turn only the candidate events of its highest attempt (a retried candidate turn starts
 * over from a restored sandbox, so earlier attempts did not happen for the candidate).
 */
export function latestAttempts(events: readonly TranscriptEvent[]): TranscriptEvent[] {
  const latest = new Map<number, number>();
  for (const event of events) {
    if (!event.role.startsWith('candidate')) continue;
    latest.set(event.turn, Math.max(latest.get(event.turn) ?? 0, event.attempt));
  }
  return events.filter((event) => !event.role.startsWith('candidate') || event.attempt === latest.get(event.turn));
}
