import type { BatchCounts } from './batchInput.js';
import type { RunSpec } from './runSpec.js';

/**
 * What the Temporal Web UI says about a run and a batch (user metadata): a one-line summary
 * fixed at start, details in Markdown, and a line of current details that moves as the
 * workflow does. Plain text from plain data, so workflows and the CLI share it.
 */

/** `add-truncate · claude-code (sonnet) · rev 3f2a1c · attempt 2/5`; rev and attempt only when known. */
export function runSummary(spec: RunSpec, runsPerCase: number): string {
  const model = spec.candidate.model ? ` (${spec.candidate.model})` : '';
  return [
    spec.evalCase.id,
    `${spec.candidate.name}${model}`,
    ...(spec.arm ? [`arm ${spec.arm}`] : []),
    ...(spec.noWorkflow ? ['no workflow'] : spec.workflowRev ? [`rev ${shortRev(spec.workflowRev)}`] : []),
    ...(spec.k !== undefined ? [`attempt ${spec.k}/${Math.max(runsPerCase, spec.k)}`] : []),
    // An uncontained result must never be taken for a contained one.
    ...(spec.candidate.isolation === 'none' ? ['uncontained'] : []),
  ].join(' · ');
}

/** `evalflow view` on its default address: the page a run's details link to. */
const VIEWER = 'http://127.0.0.1:8300';

/** The case's purpose, where the run's files are and how to look at them. */
export function runDetails(spec: RunSpec): string {
  const runDir = batchRunDir(spec);
  return [
    `**${spec.evalCase.id}** ${spec.evalCase.version} (${spec.evalCase.category}, workflow ${spec.evalCase.targetWorkflow}, at most ${spec.evalCase.maxTurns} turns)`,
    ...(spec.evalCase.purpose ? ['', spec.evalCase.purpose] : []),
    '',
    // Browsers refuse file:// links from an http page; the viewer serves the run's files.
    `- look at it: [${VIEWER}/runs/${encodeURIComponent(spec.runId)}](${VIEWER}/runs/${encodeURIComponent(spec.runId)}) (while \`evalflow view\` runs), or \`evalflow show ${spec.runId}\``,
    `- run directory: \`${runDir}\``,
    `- batch: \`evalflow status ${spec.batchId}\``,
  ].join('\n');
}

/** Where the batch expects the run's files: its runs dir, as the static details say. */
function batchRunDir(spec: Pick<RunSpec, 'runsDir' | 'runId'>): string {
  return `${spec.runsDir}/${spec.runId}`;
}

/**
 * The line of current details naming where the run's files really are, when its worker keeps
 * its own runs dir (the static details, fixed when the batch started it, name the batch's);
 * null when they are where the batch says.
 */
export function runPlace(spec: Pick<RunSpec, 'runsDir' | 'runId'>, runDir: string, host: string | null): string | null {
  // The batch's runs dir as the client wrote it; the worker's path is joined (no trailing slash).
  if (runDir === batchRunDir({ runId: spec.runId, runsDir: spec.runsDir.replace(/\/+$/, '') })) return null;
  return `- run directory: \`${runDir}\` on ${host ? `host \`${host}\`` : 'its host'} (that worker's runs dir, not the batch's)`;
}

/** Where a run stands, for its current details. */
export interface RunPosition {
  stage: string;
  turn: number;
  maxTurns: number;
  /** Who works in the dialogue right now. */
  actor?: 'examiner' | 'candidate';
  /** Tool calls the candidate made so far (those reported by its turns). */
  toolCalls: number;
}

/** `turn 3/10 · candidate running · 14 tool calls`. */
export function runPosition(position: RunPosition): string {
  const turn = `turn ${position.turn}/${position.maxTurns}`;
  const tools = position.toolCalls > 0 ? [`${position.toolCalls} tool call${position.toolCalls === 1 ? '' : 's'}`] : [];
  switch (position.stage) {
    case 'prepare':
      return 'preparing the run directory and sandbox';
    case 'setup':
      return 'running the case setup and preconditions';
    case 'dialogue':
      return [turn, position.actor === 'examiner' ? 'examiner writing' : 'candidate running', ...tools].join(' · ');
    case 'verify':
      return [`${position.turn} turn${position.turn === 1 ? '' : 's'} done`, 'checking postconditions', ...tools].join(' · ');
    case 'judge':
      return [`${position.turn} turn${position.turn === 1 ? '' : 's'} done`, 'judge reading the transcript', ...tools].join(' · ');
    case 'cleanup':
      return 'cleaning up the sandbox';
    case 'record':
      return 'recording the outcome';
    default:
      return position.stage;
  }
}

/** The end of a run, as its last current details. */
export function runEnded(outcome: { status: string; result: string | null; overall: number | null; error?: string | null }): string {
  const result = outcome.result ? ` · ${outcome.result}${outcome.overall !== null ? ` (overall ${outcome.overall.toFixed(1)})` : ''}` : '';
  const error = outcome.status !== 'completed' && outcome.error ? ` · ${firstLine(outcome.error)}` : '';
  return `done · ${outcome.status}${result}${error}`;
}

/** `18/30 done · 12 pass · 4 fail · 1 infra_error · 1 running`. */
export function batchPosition(counts: BatchCounts, total: number | null, running: number): string {
  const shown = new Set(['finished', 'passed', 'failed', 'completed']);
  const others = Object.entries(counts)
    .filter(([status, n]) => !shown.has(status) && n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${n} ${status}`);
  return [`${counts.finished}/${total ?? '?'} done`, `${counts.passed} pass`, `${counts.failed} fail`, ...others, `${running} running`].join(' · ');
}

/** What a batch runs, for its static summary: `3 cases × 2 · claude-code (sonnet) · parallelism 4`. */
export function batchSummaryLine(batch: { cases: number; runsPerCase: number; candidate: { name: string; model?: string | undefined }; parallelism: number; arms?: readonly { name: string }[]; label?: string }): string {
  const model = batch.candidate.model ? ` (${batch.candidate.model})` : '';
  return [
    ...(batch.label ? [batch.label] : []),
    `${batch.cases} case${batch.cases === 1 ? '' : 's'}${batch.runsPerCase > 1 ? ` × ${batch.runsPerCase}` : ''}`,
    `${batch.candidate.name}${model}`,
    ...(batch.arms?.length ? [`arms ${batch.arms.map((a) => a.name).join(' vs ')}`] : []),
    `parallelism ${batch.parallelism}`,
  ].join(' · ');
}

/** A batch's static details: what it selected and how to follow it. */
export function batchDetails(batchId: string, selection: { paths: readonly string[]; only?: readonly string[] | undefined }, runsDir: string): string {
  return [
    `- cases from: ${selection.paths.map((p) => `\`${p}\``).join(', ')}${selection.only?.length ? ` (only ${selection.only.join(', ')})` : ''}`,
    `- run directories under: \`${runsDir}\``,
    `- follow it: \`evalflow status ${batchId}\` or \`evalflow attach ${batchId}\``,
    `- its runs in the Web UI: \`EvalBatch="${batchId}"\``,
  ].join('\n');
}

function shortRev(rev: string): string {
  return /^[0-9a-f]{7,40}$/.test(rev) ? rev.slice(0, 7) : rev;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
