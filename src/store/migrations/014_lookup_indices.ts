import type { Migration } from './migration.js';

/**
 * Indices in the order the look-ups list rows, so a page of a list is a range read of an index
 * rather than a sort of every matching row: runs newest first (`runs`, `show`'s recent runs),
 * a batch's runs newest first (`runs --batch`, `compare`), and batches newest first, each with
 * its id as the tie-break the keyset cursor (`--after`) needs. The batch's index replaces the
 * one on batch_id alone, which it covers.
 */
export const lookupIndices: Migration = {
  version: 14,
  name: 'lookup_indices',
  sql: `
CREATE INDEX runs_created_idx ON runs (created_at DESC, run_id DESC);
CREATE INDEX runs_batch_created_idx ON runs (batch_id, created_at DESC, run_id DESC);
DROP INDEX runs_batch_id_idx;
CREATE INDEX batches_created_id_idx ON batches (created_at DESC, batch_id DESC);
DROP INDEX batches_created_at_idx;
`,
};
