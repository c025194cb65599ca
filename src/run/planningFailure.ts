/** Problems listed in a planning failure's message, one line each; the rest are counted. */
export const PROBLEMS_SHOWN = 20;

/**
 * Why a batch could not be planned, as the one message that crosses Temporal to the client
 * (the problems list on the error does not): the host that planned it, whose bank or store
 * may differ from the client's, where it read the cases, and each problem on a line of its own.
 */
export function planningFailureMessage(failure: { batchId: string; hostId: string; source: string; problems: readonly string[] }): string {
  const { problems } = failure;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((problem) => `  ${problem}`);
  const more = problems.length > PROBLEMS_SHOWN ? [`  … and ${problems.length - PROBLEMS_SHOWN} more`] : [];
  return [`batch ${failure.batchId} cannot be planned on host ${failure.hostId}: ${count} in ${failure.source}:`, ...shown, ...more].join('\n');
}
