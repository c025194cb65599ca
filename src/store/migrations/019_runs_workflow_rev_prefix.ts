import type { Migration } from './migration.js';

/**
 * `compare` names a workflow_rev by a prefix of its commit (`listRuns({workflowRevPrefix})`, a
 * LIKE 'prefix%'). A plain btree on text serves LIKE only under the C collation; text_pattern_ops
 * serves it under any, so the prefix is a range read instead of a scan of every run.
 */
export const runsWorkflowRevPrefix: Migration = {
  version: 19,
  name: 'runs_workflow_rev_prefix',
  sql: `
CREATE INDEX runs_workflow_rev_prefix_idx ON runs (workflow_rev text_pattern_ops);
`,
};
