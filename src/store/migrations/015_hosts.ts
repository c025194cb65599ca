import type { Migration } from './migration.js';

/**
 * Hosts in view: each worker's heartbeat (its host id, slots, busy slots, whether it drains),
 * and the host of every attempt of a run (a run restarted elsewhere after its host was lost
 * has one row per generation). No foreign key to runs: a claim may be written before the
 * run's row, and a worker row outlives no run.
 */
export const hosts: Migration = {
  version: 15,
  name: 'hosts',
  sql: `
CREATE TABLE workers (
  worker_id  text PRIMARY KEY,
  host_id    text NOT NULL,
  pid        integer NOT NULL,
  hostname   text NOT NULL,
  slots      integer CHECK (slots > 0),
  busy       integer NOT NULL CHECK (busy >= 0),
  draining   boolean NOT NULL DEFAULT false,
  started_at timestamptz NOT NULL,
  seen_at    timestamptz NOT NULL
);

CREATE TABLE run_hosts (
  run_id     text NOT NULL,
  generation integer NOT NULL CHECK (generation >= 0),
  host_id    text NOT NULL,
  claimed_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, generation)
);
`,
};
