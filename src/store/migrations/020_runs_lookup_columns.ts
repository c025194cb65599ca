import type { Migration } from './migration.js';

/**
 * What `history` and `compare` read of a run's spec and config, kept beside the run as stored
 * generated columns: reading them out of the JSON meant decompressing every run's spec (and
 * config) on each look-up, most of `history`'s time at 100,000 runs. PostgreSQL computes them
 * on every insert and update of the row, and for the rows already there when the column is
 * added, so they always agree with the JSON.
 * - no_workflow: the run ran without any workflow (`spec.noWorkflow` is JSON true), as history
 *   reads it;
 * - contained: the spec's `candidate.isolation`, else the config's, is `sandbox`;
 * - workflow_expectation: `spec.evalCase.expectWorkflow` when the spec has one and no truthy
 *   `noWorkflow` (as JavaScript reads truthiness), else NULL. (Wrapping it in an array, as
 *   trigger quality returns it, is not immutable, so the query does that.)
 */
export const runsLookupColumns: Migration = {
  version: 20,
  name: 'runs_lookup_columns',
  sql: `
ALTER TABLE runs
  ADD COLUMN no_workflow boolean NOT NULL GENERATED ALWAYS AS (coalesce(spec->>'noWorkflow' = 'true', false)) STORED,
  ADD COLUMN contained boolean NOT NULL GENERATED ALWAYS AS (
    coalesce(coalesce(nullif(spec->'candidate'->'isolation', 'null'::jsonb), nullif(config->'candidate'->'isolation', 'null'::jsonb)) = '"sandbox"'::jsonb, false)) STORED,
  ADD COLUMN workflow_expectation jsonb GENERATED ALWAYS AS (
    CASE WHEN coalesce(spec->'noWorkflow' NOT IN ('false'::jsonb, '0'::jsonb, '""'::jsonb, 'null'::jsonb), false) THEN NULL
         WHEN jsonb_typeof(spec->'evalCase') = 'object' AND spec->'evalCase' ? 'expectWorkflow' THEN spec->'evalCase'->'expectWorkflow' END) STORED;
`,
};
