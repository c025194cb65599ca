/** The change of an arm that runs without any workflow: what the workflow adds is measured against it. */
export const NO_WORKFLOW_CHANGE = 'workflow=none';

/**
 * The arms in comparison order: the baseline first, every other arm compared with it, in that
 * one direction everywhere (the CLI, compare-<batch>.md, the summaries and the dashboard). The
 * baseline is the arm without any workflow when there is one, so a positive difference says the
 * workflow helped; else the batch's first arm.
 */
export function baselineFirst<T extends { change?: string | null; noWorkflow?: boolean }>(arms: readonly T[]): T[] {
  const ordered = [...arms];
  const none = ordered.findIndex((arm) => arm.noWorkflow === true || arm.change === NO_WORKFLOW_CHANGE);
  if (none > 0) ordered.unshift(...ordered.splice(none, 1));
  return ordered;
}
