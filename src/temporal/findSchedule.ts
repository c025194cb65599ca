import { ScheduleNotFoundError, type ScheduleDescription } from '@temporalio/client';
import type { TemporalHandle } from './connection.js';

/** The schedule of that name as Temporal holds it, or null when it holds none; each caller says what a missing one means. */
export async function findSchedule(temporal: TemporalHandle, name: string): Promise<ScheduleDescription | null> {
  try {
    return await temporal.client.schedule.getHandle(name).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}
