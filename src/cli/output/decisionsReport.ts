import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { RoundsState } from '../../run/untilDecided.js';
import { LABEL_ORDER } from '../../stats/index.js';
import type { BatchDecision, Store } from '../../store/index.js';
import type { CommandIo } from '../io.js';

/** Why a case stopped, as the report names it. */
const STOPPED_BY = { evidence: 'decided', futility: 'decided', limit: 'per-case limit', batch_limit: 'batch limit', budget: 'budget' } as const;

/** How the batch's rounds ended, for the closing line: from the workflow's result, or read from the store when Temporal no longer has it. */
export type RoundsEnd = Pick<RoundsState, 'round' | 'spent' | 'stop'>;

/**
 * The end of an until-decided batch, for `run` and `attach` alike: the decisions it stored as it
 * closed, printed and written to `summaries/compare-<batch>.md`. Returns false (and says nothing)
 * when it stored none: a batch that was not run until decided, or one that never got to close.
 * Without `end` the closing line counts rounds and runs from the decisions and `runs`.
 */
export async function reportStoredDecisions(store: Store, batchId: string, end: RoundsEnd | null, runs: number, summariesDir: string, io: CommandIo): Promise<boolean> {
  const decisions = await store.getBatchDecisions(batchId);
  if (decisions.length === 0) return false;
  const rounds = end ?? { round: Math.max(...decisions.map((d) => d.runs_a_side)), spent: { runs, usd: null }, stop: null };
  await reportDecisions(batchId, decisions, rounds, summariesDir, io);
  return true;
}

/**
 * Each case's label from the sequential test (never a Fisher test on the runs it accumulated:
 * that would ignore the looks taken on the way), regressions first, with its runs a side, B − A
 * and why it stopped; printed and written to `summaries/compare-<batch>.md`.
 */
export async function reportDecisions(batchId: string, decisions: readonly BatchDecision[], end: RoundsEnd, summariesDir: string, io: CommandIo): Promise<void> {
  const first = decisions[0];
  if (!first) return;
  const rows = decisions
    .map((d) => ({
      caseId: d.case_id,
      label: d.label,
      runs: d.runs_a_side,
      interval: d.difference !== null && d.low !== null && d.high !== null ? `${points(d.difference)} (${points(d.low)}…${points(d.high)})` : 'no pair',
      stoppedBy: d.stopped_by ? STOPPED_BY[d.stopped_by] : 'open',
      why: d.why,
    }))
    .sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || x.caseId.localeCompare(y.caseId));
  const decided = rows.filter((r) => r.stoppedBy === 'decided').length;
  io.out('');
  io.out(`until decided ${first.arm_a} → ${first.arm_b} (sequential test, α ${first.alpha}: labels from the test, docs/how-many-runs.md):`);
  for (const row of rows) io.out(`${row.label.padEnd(17)} ${row.caseId}  ${row.runs} run${row.runs === 1 ? '' : 's'} a side  B−A ${row.interval}  ${row.stoppedBy}: ${row.why}`);
  io.out(`${decided} of ${rows.length} case${rows.length === 1 ? '' : 's'} decided in ${end.round} round${end.round === 1 ? '' : 's'}, ${end.spent.runs} runs${end.spent.usd !== null ? ` ($${end.spent.usd.toFixed(2)})` : ''}${end.stop ? `; the batch stopped at ${end.stop}` : ''}`);
  const markdown = [
    `# ${batchId}: ${first.arm_a} → ${first.arm_b}, until decided`,
    '',
    `Labels from the sequential test (α ${first.alpha}, at most ${first.max_runs_per_case} runs a side per case), not from a test on the accumulated runs.`,
    '',
    '| label | case | runs a side | B − A (95%) | stopped | why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.label} | ${r.caseId} | ${r.runs} | ${r.interval} | ${r.stoppedBy} | ${r.why.replaceAll('|', '\\|')} |`),
    '',
  ];
  await mkdir(summariesDir, { recursive: true });
  const file = join(summariesDir, `compare-${batchId}.md`);
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, markdown.join('\n'));
  await rename(tmp, file);
  io.out(`decisions written to ${relative(io.cwd, file) || file}`);
}

function points(x: number): string {
  const p = Math.round(x * 100);
  return p === 0 ? '±0' : p > 0 ? `+${p}` : `−${-p}`;
}
