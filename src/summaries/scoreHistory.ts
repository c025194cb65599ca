import { stringify } from 'yaml';
import type { RunWithVerdict } from '../store/index.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';

/** One line of score-history.yaml: a completed run's current verdict with what trends group by. */
export interface ScoreHistoryLine {
  eval_set_id: string;
  version: string;
  result: VerdictResult;
  overall: number | null;
  compliance: number | null;
  execution_quality: number | null;
  workflow_rev: string | null;
  run_id: string;
  batch_id: string | null;
  candidate: string;
  model: string | null;
  arm: string | null;
  judged_at: string;
}

/** The history line of a run, or null for one that is not completed with a result. */
export function scoreHistoryLine({ run, verdict }: RunWithVerdict): ScoreHistoryLine | null {
  if (run.status !== 'completed' || !verdict?.result) return null;
  return {
    eval_set_id: run.case_id,
    version: run.case_version,
    result: verdict.result,
    overall: verdict.overall,
    compliance: verdict.compliance,
    execution_quality: verdict.execution_quality,
    workflow_rev: run.workflow_rev,
    run_id: run.run_id,
    batch_id: run.batch_id,
    candidate: run.candidate,
    model: run.models.candidate ?? null,
    arm: run.arm,
    judged_at: verdict.judged_at,
  };
}

/**
 * score-history.yaml: one entry per completed run ever, its current verdict (a rejudge
 * replaces the run's entry, it does not add one), sorted by judged_at then run_id, so that
 * rebuilding it from the same store gives the same bytes. Each entry is written on its own,
 * so the text of a long history never exists twice as a YAML document tree.
 */
export function renderScoreHistoryLines(lines: ScoreHistoryLine[]): string {
  if (lines.length === 0) return stringify([]);
  lines.sort((a, b) => (a.judged_at < b.judged_at ? -1 : a.judged_at > b.judged_at ? 1 : a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
  return lines.map(entryYaml).join('');
}

/**
 * One entry as a YAML block mapping, written directly: the YAML library's general emitter
 * takes about 100 µs an entry, half the time of a 100,000-run history. Every value is a
 * number, null, or a string written plain when no YAML reader could take it for anything
 * else, double-quoted (JSON's escapes are YAML's) otherwise.
 */
function entryYaml(line: ScoreHistoryLine): string {
  let out = '';
  for (const [key, value] of Object.entries(line)) out += `${out ? '  ' : '- '}${key}: ${yamlScalar(value as string | number | null)}\n`;
  return out;
}

/** Plain-safe: starts with a letter, holds no YAML indicator, and is no word YAML 1.1 or 1.2 reads as a bool or null. */
const PLAIN = /^[A-Za-z][A-Za-z0-9_.@+/-]*(?::[A-Za-z0-9_.@+/-]+)*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

function yamlScalar(value: string | number | null): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
  return PLAIN.test(value) && !RESERVED.test(value) ? value : JSON.stringify(value);
}

/** score-history.yaml of the given runs (those not completed are left out). */
export function renderScoreHistory(entries: readonly RunWithVerdict[]): string {
  return renderScoreHistoryLines(entries.map(scoreHistoryLine).filter((line): line is ScoreHistoryLine => line !== null));
}
