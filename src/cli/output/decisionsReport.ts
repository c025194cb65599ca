import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { caseVerdict, designFromWire, type DesignWire, type RoundsState } from '../../run/untilDecided.js';
import { LABEL_ORDER, type ComparisonLabel } from '../../stats/index.js';
import type { CommandIo } from '../io.js';

/** Why a case stopped, as the report names it. */
const STOPPED_BY = { evidence: 'decided', futility: 'decided', limit: 'per-case limit', batch_limit: 'batch limit', budget: 'budget' } as const;

/**
 * The end of an until-decided batch: each case's label from the sequential test (never a Fisher
 * test on the runs it accumulated: that would ignore the looks taken on the way), regressions
 * first, with its runs a side, B − A and why it stopped; printed and written to
 * `summaries/compare-<batch>.md`.
 */
export async function reportDecisions(batchId: string, arms: { a: string; b: string }, design: DesignWire, rounds: RoundsState, summariesDir: string, io: CommandIo): Promise<void> {
  const read = designFromWire(design);
  const rows = rounds.decisions
    .map((decision) => {
      const verdict = caseVerdict(read, decision);
      const interval = verdict.interval ? `${points(verdict.interval.difference)} (${points(verdict.interval.low)}…${points(verdict.interval.high)})` : 'no pair';
      const label = (decision.stopped?.label ?? 'insufficient_data') as ComparisonLabel;
      return { caseId: decision.caseId, label, runs: decision.rounds, interval, stoppedBy: decision.stopped ? STOPPED_BY[decision.stopped.stoppedBy] : 'open', why: decision.stopped?.why ?? verdict.why };
    })
    .sort((x, y) => LABEL_ORDER.indexOf(x.label) - LABEL_ORDER.indexOf(y.label) || x.caseId.localeCompare(y.caseId));
  const decided = rows.filter((r) => r.stoppedBy === 'decided').length;
  io.out('');
  io.out(`until decided ${arms.a} → ${arms.b} (sequential test, α ${read.alpha}: labels from the test, docs/how-many-runs.md):`);
  for (const row of rows) io.out(`${row.label.padEnd(17)} ${row.caseId}  ${row.runs} run${row.runs === 1 ? '' : 's'} a side  B−A ${row.interval}  ${row.stoppedBy}: ${row.why}`);
  io.out(`${decided} of ${rows.length} case${rows.length === 1 ? '' : 's'} decided in ${rounds.round} round${rounds.round === 1 ? '' : 's'}, ${rounds.spent.runs} runs${rounds.spent.usd !== null ? ` ($${rounds.spent.usd.toFixed(2)})` : ''}${rounds.stop ? `; the batch stopped at ${rounds.stop}` : ''}`);
  const markdown = [
    `# ${batchId}: ${arms.a} → ${arms.b}, until decided`,
    '',
    `Labels from the sequential test (α ${read.alpha}, at most ${read.maxPairs} runs a side per case), not from a test on the accumulated runs.`,
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
