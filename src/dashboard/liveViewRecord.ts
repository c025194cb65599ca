import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';

/**
 * Where a running `evalflow view` says it serves: `$EVALFLOW_HOME/view.json`, written when it
 * starts listening and removed when it stops, so `evalflow dashboard` can link its static page
 * to the live view. A record whose process is gone (kill -9) is ignored.
 */
export const LiveViewRecordSchema = z.object({
  url: z.url(),
  pid: z.number().int().positive(),
  host: z.string(),
  started_at: z.iso.datetime({ offset: true }),
});
export type LiveViewRecord = z.infer<typeof LiveViewRecordSchema>;

function recordPath(stateDir: string): string {
  return join(stateDir, 'view.json');
}

/** Records this process's viewer (replacing another's: the newest viewer is the one linked); returns how to remove it. */
export async function recordLiveView(stateDir: string, url: string): Promise<() => Promise<void>> {
  const record: LiveViewRecord = { url, pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  await mkdir(stateDir, { recursive: true });
  const draft = `${recordPath(stateDir)}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(record)}\n`);
  await rename(draft, recordPath(stateDir));
  return async () => {
    // Only our own record: a viewer started after this one keeps its.
    if ((await readRecord(stateDir))?.pid === process.pid) await rm(recordPath(stateDir), { force: true });
  };
}

/** The viewer running on this machine for this EVALFLOW_HOME, or null (none, gone, or another host's). */
export async function runningLiveView(stateDir: string): Promise<LiveViewRecord | null> {
  const record = await readRecord(stateDir);
  if (!record || record.host !== hostname()) return null;
  try {
    process.kill(record.pid, 0);
    return record;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? record : null;
  }
}

async function readRecord(stateDir: string): Promise<LiveViewRecord | null> {
  const text = await readFile(recordPath(stateDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = LiveViewRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
