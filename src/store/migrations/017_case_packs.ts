import type { Migration } from './migration.js';

/**
 * Eval cases that travel with their batch: each case folder the client validated, as content
 * keyed by its hash (`case_packs`), and the batch's selection of them (`case_sets`), so a
 * worker host plans and runs from what the client saw, with nothing at the client's paths.
 * A plan entry names the pack of its case; null in plans made from paths.
 */
export const casePacks: Migration = {
  version: 17,
  name: 'case_packs',
  sql: `
CREATE TABLE case_packs (
  pack_hash  text PRIMARY KEY,
  case_id    text NOT NULL,
  pack       jsonb NOT NULL,
  bytes      integer NOT NULL CHECK (bytes >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE case_sets (
  set_hash   text PRIMARY KEY,
  cases      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE batch_plan ADD COLUMN case_pack text;
`,
};
