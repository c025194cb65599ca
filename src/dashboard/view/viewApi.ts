import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import * as z from 'zod';
import type { Run, Store } from '../../store/index.js';
import { loadRunsWithVerdicts } from '../../summaries/loadRuns.js';
import { runIsolation } from '../../summaries/runIsolation.js';
import type { TranscriptEvent } from '../../transcript/schema.js';
import type { Isolation } from '../../vocabulary/isolation.js';
import { batchCaseRuns, type CaseRun } from './batchCases.js';

/** What the viewer's JSON endpoints answer with; read-only, each reads only what its page shows. */

export const RunsQuerySchema = z.object({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(500).default(50),
  sort: z.enum(['run_id', 'case_id', 'arm', 'status', 'overall', 'finished_at', 'isolation']).default('run_id'),
  order: z.enum(['asc', 'desc']).default('asc'),
  status: z.string().optional(),
  q: z.string().optional().describe('a part of the run id or case id'),
});
export type RunsQuery = z.infer<typeof RunsQuerySchema>;

export interface RunsPage {
  batchId: string;
  total: number;
  offset: number;
  /** The batch's runs (whatever the filter) whose candidate ran uncontained. */
  uncontained: number;
  runs: { run_id: string; case_id: string; candidate: string; status: string; result: string | null; overall: number | null; workflow_rev: string | null; arm: string | null; finished_at: string | null; isolation: Isolation }[];
}

/** A batch's runs, filtered, sorted and cut to one page (a batch's rows fit in memory; the history's do not). */
export async function batchRuns(store: Store, batchId: string, query: RunsQuery): Promise<RunsPage | null> {
  if (!(await store.getBatch(batchId))) return null;
  let runs = (await loadRunsWithVerdicts(store, { batchId })).map(({ run, verdict }) => ({
    run_id: run.run_id,
    case_id: run.case_id,
    candidate: run.candidate,
    status: run.status,
    result: verdict?.result ?? null,
    overall: verdict?.overall ?? null,
    workflow_rev: run.workflow_rev,
    arm: run.arm,
    finished_at: run.finished_at,
    isolation: runIsolation(run),
  }));
  const uncontained = runs.filter((r) => r.isolation === 'none').length;
  if (query.status) runs = runs.filter((r) => r.status === query.status || r.result === query.status);
  if (query.q) runs = runs.filter((r) => r.run_id.includes(query.q!) || r.case_id.includes(query.q!));
  const key = query.sort;
  const sign = query.order === 'asc' ? 1 : -1;
  runs.sort((a, b) => {
    const x = a[key], y = b[key];
    if (x === y) return a.run_id < b.run_id ? -1 : 1;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  });
  return { batchId, total: runs.length, offset: query.offset, uncontained, runs: runs.slice(query.offset, query.offset + query.limit) };
}

export interface RunDetail {
  run: Pick<Run, 'run_id' | 'batch_id' | 'case_id' | 'candidate' | 'models' | 'status' | 'result' | 'overall' | 'workflow_rev' | 'arm' | 'anomalies' | 'error' | 'started_at' | 'finished_at' | 'run_dir'> & { isolation: Isolation };
  score: { result: string | null; compliance: number | null; execution_quality: number | null; overall: number | null; summary: string; hard_requirements: Record<string, unknown>[]; suggestions: string[] } | null;
  review: string | null;
  snapshotFiles: string[];
  temporalUrl: string | null;
  /** The host of each attempt (a run restarts on another host when its own is lost), first attempt first. */
  hosts: { attempt: number; host_id: string; claimed_at: string }[];
  turns: number[];
  /** The same case's other runs in the batch (other arms, other attempts), and the runs before and after it in reading order. */
  related: { case: CaseRun[]; previous: string | null; next: string | null };
}

/** One run's page: its score, hard requirements, review.md, anomalies, snapshot files and the link to Temporal. */
export async function runDetail(store: Store, runId: string, temporalUi: { url: string; namespace: string } | null): Promise<RunDetail | null> {
  const run = await store.getRun(runId);
  if (!run) return null;
  // Independent reads, asked at once: each is a round trip to the process that holds the store.
  const [score, transcript, hosts, related, review, snapshotFiles] = await Promise.all([
    store.getScore(runId),
    store.getTranscript(runId),
    store.getRunHosts([runId]),
    relatedRuns(store, run.batch_id, run.run_id, run.case_id),
    readFile(join(run.run_dir, 'review.md'), 'utf8').catch(() => null),
    listFiles(join(run.run_dir, 'workflow')),
  ]);
  return {
    run: {
      run_id: run.run_id, batch_id: run.batch_id, case_id: run.case_id, candidate: run.candidate, models: run.models, status: run.status, result: run.result, overall: run.overall,
      workflow_rev: run.workflow_rev, arm: run.arm, anomalies: run.anomalies, error: run.error, started_at: run.started_at, finished_at: run.finished_at, run_dir: run.run_dir,
      isolation: runIsolation(run),
    },
    score: score && { result: score.result, compliance: score.compliance, execution_quality: score.execution_quality, overall: score.overall, summary: score.summary, hard_requirements: score.hard_requirements, suggestions: score.suggestions },
    review,
    snapshotFiles,
    temporalUrl:
      temporalUi && run.temporal_workflow_id
        ? `${temporalUi.url}/namespaces/${encodeURIComponent(temporalUi.namespace)}/workflows/${encodeURIComponent(run.temporal_workflow_id)}${run.temporal_run_id ? `/${encodeURIComponent(run.temporal_run_id)}` : ''}`
        : null,
    hosts: hosts.map((h) => ({ attempt: h.generation + 1, host_id: h.host_id, claimed_at: h.claimed_at })),
    turns: [...new Set(transcript.map((e) => e.turn))],
    related,
  };
}

export const TranscriptQuerySchema = z.object({
  page: z.coerce.number().int().nonnegative().default(0),
  turns: z.coerce.number().int().positive().max(50).default(10),
});

/** A page of a run's transcript, a few turns at a time. */
export async function transcriptPage(store: Store, runId: string, query: z.infer<typeof TranscriptQuerySchema>): Promise<{ page: number; pages: number; turns: { turn: number; events: TranscriptEvent[] }[] }> {
  const events = await store.getTranscript(runId);
  const turns = [...new Set(events.map((e) => e.turn))];
  const shown = new Set(turns.slice(query.page * query.turns, (query.page + 1) * query.turns));
  return {
    page: query.page,
    pages: Math.ceil(turns.length / query.turns),
    turns: [...shown].map((turn) => ({ turn, events: events.filter((e) => e.turn === turn) })),
  };
}

/** Where a word occurs in a run's transcript (case-insensitive): turn, seq and a snippet. */
export async function searchTranscript(store: Store, runId: string, text: string): Promise<{ turn: number; seq: number; role: string; snippet: string }[]> {
  const needle = text.toLowerCase();
  if (!needle) return [];
  return (await store.getTranscript(runId)).flatMap((e) => {
    const at = e.content.toLowerCase().indexOf(needle);
    return at < 0 ? [] : [{ turn: e.turn, seq: e.seq, role: e.role, snippet: e.content.slice(Math.max(0, at - 40), at + needle.length + 40) }];
  });
}

async function relatedRuns(store: Store, batchId: string | null, runId: string, caseId: string): Promise<RunDetail['related']> {
  if (batchId === null) return { case: [], previous: null, next: null };
  const runs = await batchCaseRuns(store, batchId);
  const at = runs.findIndex((r) => r.run_id === runId);
  return { case: runs.filter((r) => r.case_id === caseId && r.run_id !== runId), previous: runs[at - 1]?.run_id ?? null, next: runs[at + 1]?.run_id ?? null };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}
