import * as z from 'zod';
import type { Batch, RunWithVerdict } from '../store/index.js';
import { baselineFirst } from '../vocabulary/armOrder.js';
import { batchArms } from './latestStats.js';

/** One arm of a batch with its runs. */
export interface ArmGroup {
  name: string;
  change: string | null;
  entries: RunWithVerdict[];
}

/** The arms a batch was started with, as its row keeps them. */
const SpecArmsSchema = z.object({ arms: z.array(z.object({ name: z.string(), change: z.string(), noWorkflow: z.boolean().optional() })) });

/**
 * A batch's runs by arm, baseline arm first (`baselineFirst`); none for a batch without arms. An
 * arm the batch was started with but that recorded no run is there too, with no runs: a gate
 * must see it measured nothing, not lose it.
 */
export function armGroups(batch: Pick<Batch, 'spec'> | null, entries: readonly RunWithVerdict[]): ArmGroup[] {
  const ran = batchArms(batch ?? { spec: {} }, entries);
  if (ran.length === 0) return [];
  const given = SpecArmsSchema.safeParse(batch?.spec);
  const silent = given.success ? given.data.arms.filter((a) => !ran.some((r) => r.name === a.name)).map((a) => ({ name: a.name, change: a.change })) : [];
  return baselineFirst([...ran, ...silent]).map((arm) => ({ ...arm, entries: entries.filter((e) => e.run.arm === arm.name) }));
}

/** The distinct arms the runs ran in (null for runs outside an experiment), in first-seen order. */
export function armsOf(entries: readonly RunWithVerdict[]): (string | null)[] {
  return [...new Set(entries.map((e) => e.run.arm))];
}

/**
 * Like for like: the runs of arm `name` on the other side, or null when it has no such arm. Two
 * arms are never pooled into one side of a comparison.
 */
export function sameArm(name: string, other: readonly RunWithVerdict[]): RunWithVerdict[] | null {
  const runs = other.filter((e) => e.run.arm === name);
  return runs.length > 0 ? runs : null;
}
