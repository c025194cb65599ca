import type { ProcessExit, StreamNormalizer, TurnOutcome } from '../adapter.js';
import type { EventCollector } from './eventCollector.js';
import { parseJsonLine, type JsonObject } from './jsonLine.js';

/** What one stream family makes of its JSON events. */
export interface JsonStreamReader {
  /** Reads one event into the collector; false for an event the family does not know (an ignored line). */
  read(event: JsonObject): boolean;
  /** The turn's outcome once the process has ended. */
  end(exit: ProcessExit, ignoredLines: number): TurnOutcome;
}

/**
 * The line loop every JSON-lines normaliser shares: a line that is not a JSON object is ignored
 * (and counted unless blank), an event is read, and the events it completed are drained.
 */
export function createJsonStreamNormalizer(collector: EventCollector, reader: JsonStreamReader): StreamNormalizer {
  let ignoredLines = 0;
  return {
    push(line) {
      const event = parseJsonLine(line);
      if (!event) {
        if (line.trim()) ignoredLines++;
        return [];
      }
      if (!reader.read(event)) ignoredLines++;
      return collector.drain();
    },
    end: (exit) => reader.end(exit, ignoredLines),
  };
}
