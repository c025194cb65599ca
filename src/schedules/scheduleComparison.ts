import type { Batch, RunWithVerdict } from '../store/index.js';
import { armGroups, armsOf, sameArm } from '../summaries/armGroups.js';
import { compareSides } from '../summaries/comparison.js';
import type { VerdictSample } from '../summaries/stability.js';
import { reportArmComparisons, reportComparison, type ReportComparison } from './scheduleReport.js';

/**
 * A scheduled batch against another (the previous firing, or the baseline). Without arms, the
 * two batches whole. With arms, like for like: arm X of the other batch with arm X now, never a
 * pool of arms; an arm the other batch did not run is not compared, and says so in `problems`,
 * as does a batch with arms against one without (or the reverse).
 */
export function compareScheduled(
  against: string,
  then: readonly RunWithVerdict[],
  now: { batchId: string; batch: Pick<Batch, 'spec'> | null; entries: readonly RunWithVerdict[] },
  judgings: readonly VerdictSample[] = [],
): { comparison: ReportComparison | null; problems: string[] } {
  const arms = armGroups(now.batch, now.entries);
  const theirs = armsOf(then).filter((arm): arm is string => arm !== null);
  if (arms.length === 0) {
    if (theirs.length > 0) return { comparison: null, problems: [`no comparison with ${against}: it ran arms (${theirs.join(', ')}) and ${now.batchId} none; arms are never pooled`] };
    return { comparison: reportComparison(against, compareSides({ label: against, entries: then }, { label: now.batchId, entries: now.entries }, { judgings })), problems: [] };
  }
  const problems: string[] = [];
  const compared = arms.flatMap((arm) => {
    const same = sameArm(arm.name, then);
    if (!same) {
      problems.push(`no comparison of arm ${arm.name} with ${against}: it has no arm ${arm.name}${theirs.length ? ` (its arms: ${theirs.join(', ')})` : ' (it ran without arms)'}`);
      return [];
    }
    return [{ arm: arm.name, comparison: compareSides({ label: `${against}:${arm.name}`, entries: same }, { label: `${now.batchId}:${arm.name}`, entries: arm.entries }, { judgings }) }];
  });
  return { comparison: compared.length > 0 ? reportArmComparisons(against, compared) : null, problems };
}
