import { describe, expect, it } from 'vitest';
import type { StatusJson } from '../../../src/cli/json/status.js';
import { formatStatus } from '../../../src/cli/output/statusTable.js';

const running = (n: number): StatusJson['runs'] =>
  Array.from({ length: n }, (_, i) => ({ run_id: `run-c-fake@20260302T000000-${i + 1}`, case_id: 'c', arm: null, attempt_index: i + 1, status: 'running' as const, result: null, stage: i === 0 ? 'dialogue' : null, host: 'host-a' }));

/** A live batch: two workers here, one host with slots, one lost host, ten runs running. */
const live: StatusJson = {
  schema_version: 1,
  batch_id: 'batch-x',
  status: 'running',
  live: true,
  counts: { finished: 4, passed: 3, failed: 1 },
  planned: 14,
  counts_of_last: 3,
  store_updated_at: null,
  workers: { here: [11, 12], elsewhere: ['7@far'] },
  waiting: null,
  hosts: [{ host_id: 'host-a', slots: 4, busy: 3, free: 1, draining: true, workers: [{ pid: 11, hostname: 'm1' }] }],
  lost_hosts: [{ host_id: 'host-z', run_ids: ['run-q'], last_seen_s_ago: 40, moves_in_s: 20, host_lost_after_s: 60 }],
  runs: [...running(10), { run_id: 'run-done', case_id: 'c', arm: null, attempt_index: null, status: 'completed', result: 'pass', stage: null, host: null }],
  candidate: null,
  started_at: '2026-03-02T00:00:00.000Z',
};

describe('formatStatus: the table read from the --json document', () => {
  it('a live batch: counts with their window, workers, hosts, the running runs with their stage', () => {
    expect(formatStatus(live)).toEqual([
      'batch     batch-x',
      'status    running, 4/14 finished: 3 pass, 1 fail (of the last 3)',
      'workers   2 here (pid 11, 12), 1 elsewhere (7@far)',
      'host      host-a: 1/4 slots free, draining (pid 11 on m1)',
      'waiting   1 run(s) for lost host host-z (last seen 40s ago): run-q; they move to another host in about 20s (host_lost_after_s 60s)',
      `running   ${live.runs
        .slice(0, 8)
        .map((r, i) => `${r.run_id}${i === 0 ? ' (dialogue)' : ''}`)
        .join(', ')}, +2 more`,
      'started   2026-03-02T00:00:00.000Z',
    ]);
  });

  it('a live batch not planned yet and without a worker: what it waits for', () => {
    const lines = formatStatus({ ...live, counts: null, counts_of_last: null, workers: { here: [], elsewhere: [] }, waiting: 'for a worker: start one', hosts: [], lost_hosts: [], runs: [], started_at: null });
    expect(lines).toEqual(['batch     batch-x', 'status    running: starting (not planned yet)', 'waiting   for a worker: start one']);
  });

  it('a closed batch: its counts and where its runs are listed, no waiting line', () => {
    const lines = formatStatus({ ...live, status: 'cancelled', live: false, counts_of_last: null, workers: null, waiting: 'ignored once closed', hosts: [], lost_hosts: [], store_updated_at: '2026-03-02T01:00:00.000Z' });
    expect(lines.slice(1, 3)).toEqual(['status    cancelled, 4/14 finished: 3 pass, 1 fail', 'runs      `evalflow runs --batch batch-x`']);
  });
});
