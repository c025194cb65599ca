import type { Batch, RunWithVerdict } from '../store/index.js';
import { batchArms } from './latestStats.js';

/** One arm of a batch with its runs. */
export interface ArmGroup {
  name: string;
  change: string | null;
  entries: RunWithVerdict[];
}

/** A batch's runs by arm, baseline arm first (`baselineFirst`); none for a batch without arms. */
export function armGroups(batch: Pick<Batch, 'spec'> | null, entries: readonly RunWithVerdict[]): ArmGroup[] {
  return batchArms(batch ?? { spec: {} }, entries).map((arm) => ({ ...arm, entries: entries.filter((e) => e.run.arm === arm.name) }));
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
