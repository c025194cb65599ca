import type { Run } from '../store/index.js';

/**
 * Whether a run ran with no workflow at all (an arm `workflow=none`). Its workflow_rev reads
 * `none`, but that names no revision: it is the arm the revisions are measured against, so it
 * never enters a history of revisions nor counts as "the rev after" any of them.
 */
export function ranWithoutWorkflow(run: Pick<Run, 'spec' | 'workflow_rev'>): boolean {
  return (run.spec as { noWorkflow?: unknown } | null)?.noWorkflow === true || run.workflow_rev === 'none';
}

/** The workflow revision a run ran; null when it ran without any workflow, `unknown` when the folder was no git repository. */
export function workflowRevisionOf(run: Pick<Run, 'spec' | 'workflow_rev'>): string | null {
  return ranWithoutWorkflow(run) ? null : (run.workflow_rev ?? 'unknown');
}
