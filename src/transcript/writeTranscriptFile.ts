import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import type { TranscriptEvent } from './schema.js';

/**
 * Rewrites transcript.jsonl from the store's events (all attempts, in order). The file is a
 * view: rebuilding it whole keeps it free of duplicates when a turn is retried.
 */
export async function writeTranscriptFile(path: string, events: readonly TranscriptEvent[]): Promise<void> {
  const body = events.map((event) => JSON.stringify(event)).join('\n');
  // Unique per writer: a retried activity may rewrite the view while the old attempt still does.
  const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, body ? `${body}\n` : '');
  await rename(tmp, path);
}
