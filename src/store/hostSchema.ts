import * as z from 'zod';

const Timestamp = z.iso.datetime({ offset: true });

/** A worker's heartbeat: who it is, how many runs it may hold and holds, whether it drains. */
export const WorkerRowSchema = z.object({
  worker_id: z.string().min(1).describe('`<host id>/<pid>@<hostname>`: one row per worker process'),
  host_id: z.string().min(1),
  pid: z.number().int().positive(),
  hostname: z.string().min(1),
  slots: z.number().int().positive().nullable().describe('the most runs this worker holds at once; null: no limit (a CLI\'s own worker)'),
  busy: z.number().int().nonnegative().describe('the runs it holds now'),
  draining: z.boolean().describe('asked to finish its runs and take no new ones'),
  started_at: Timestamp,
  seen_at: Timestamp,
});
export type WorkerRow = z.infer<typeof WorkerRowSchema>;

/** The host that took one attempt (generation) of a run. */
export const RunHostSchema = z.object({
  run_id: z.string().min(1),
  generation: z.number().int().nonnegative(),
  host_id: z.string().min(1),
  claimed_at: Timestamp,
});
export type RunHost = z.infer<typeof RunHostSchema>;
