import type { StatusJson } from '../json/status.js';
import { formatCounts } from '../batch/counts.js';
import { formatHostLines } from '../batch/hosts.js';

/** Running runs named on the `running` line; the rest are counted. */
const RUNNING_SHOWN = 8;

/**
 * The lines of `evalflow status`, read from the document `--json` prints, so the table and
 * the JSON cannot say different things.
 */
export function formatStatus(status: StatusJson): string[] {
  const lines = [`batch     ${status.batch_id}`];
  if (status.live) {
    lines.push(status.counts ? `status    running, ${formatCounts(status.counts, status.planned)}${status.counts_of_last !== null ? ` (of the last ${status.counts_of_last})` : ''}` : 'status    running: starting (not planned yet)');
    const workers = status.workers;
    if (workers && workers.here.length + workers.elsewhere.length > 0) {
      const here = workers.here.length ? [`${workers.here.length} here (pid ${workers.here.join(', ')})`] : [];
      const elsewhere = workers.elsewhere.length ? [`${workers.elsewhere.length} elsewhere (${workers.elsewhere.join(', ')})`] : [];
      lines.push(`workers   ${[...here, ...elsewhere].join(', ')}`);
    }
    if (status.waiting) lines.push(`waiting   ${status.waiting}`);
    lines.push(...formatHostLines({ live: status.hosts.map(liveHost), lost: status.lost_hosts.map(lostHost) }));
    const running = status.runs.filter((r) => r.status === 'running').map((r) => `${r.run_id}${r.stage ? ` (${r.stage})` : ''}`);
    if (running.length > 0) lines.push(`running   ${running.slice(0, RUNNING_SHOWN).join(', ')}${running.length > RUNNING_SHOWN ? `, +${running.length - RUNNING_SHOWN} more` : ''}`);
  } else {
    const stillOpen = status.status === 'running' || status.status === 'pending';
    const counts = status.counts ? `, ${formatCounts(status.counts, status.planned)}` : '';
    lines.push(`status    ${status.status}${counts}${stillOpen && status.store_updated_at ? ` (the store's last word, ${status.store_updated_at})` : ''}`);
    if (!stillOpen) lines.push(`runs      \`evalflow runs --batch ${status.batch_id}\``);
    else if (status.waiting) lines.push(`waiting   ${status.waiting}`);
  }
  const candidate = status.candidate;
  if (candidate) {
    const details = [candidate.adapter, candidate.model].filter((v) => v !== null).join(', ');
    lines.push(`candidate ${candidate.name}${details ? ` (${details})` : ''}, parallelism ${candidate.parallelism ?? '?'}, ${candidate.runs_per_case} run(s) per case`);
  }
  if (status.started_at) lines.push(`started   ${status.started_at}`);
  return lines;
}

function liveHost(host: StatusJson['hosts'][number]) {
  return { hostId: host.host_id, slots: host.slots, busy: host.busy, draining: host.draining, workers: host.workers };
}

function lostHost(host: StatusJson['lost_hosts'][number]) {
  return { hostId: host.host_id, runIds: host.run_ids, lastSeenSAgo: host.last_seen_s_ago, movesInS: host.moves_in_s, hostLostAfterS: host.host_lost_after_s };
}
