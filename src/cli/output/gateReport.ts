import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Store } from '../../store/index.js';
import { comparisonLines, loadRunsWithVerdicts, parseGate, renderJunit } from '../../summaries/index.js';
import { armGroups } from '../../summaries/armGroups.js';
import { evaluateBatchGate, type BatchGate } from '../../summaries/batchGate.js';
import { resolveSide, selectSide } from '../../summaries/selectSide.js';
import { sequentialSideNotes } from '../../summaries/sequentialSideNotes.js';
import type { CommandIo } from '../io.js';
import type { Prices } from '../../vocabulary/prices.js';
import { changedOnlyOf, describeChangedOnly } from '../../vocabulary/changedOnly.js';

/** Exit codes of `evalflow run` with a gate: met, failed (or a regression against the baseline), infrastructure. */
export const GATE_EXIT = { met: 0, failed: 1, infrastructure: 2 } as const;

export interface GateOptions {
  gate?: string;
  baseline?: string;
  junit?: string;
  maxInfraErrors?: number;
}

/** Whether the options ask for a gate (and so for its exit codes). */
export function wantsGate(options: GateOptions): boolean {
  return options.gate !== undefined || options.baseline !== undefined || options.maxInfraErrors !== undefined;
}

/**
 * After a batch: the gate (`evaluateBatchGate`: per arm for a batch with arms, never pooled), then
 * the JUnit file when asked (its runs per arm, and the gate's checks), then the gate's lines, each
 * naming the arm it is about. Exit 2 when the batch (or an arm) judged nothing or had more
 * infrastructure failures (infra_error, judge_failed) than allowed; 1 when a check failed.
 * `evaluated` receives the gate (for `run --json`).
 */
export async function reportGate(store: Store, batchId: string, options: GateOptions, prices: Prices, io: CommandIo, evaluated?: (gate: BatchGate) => void): Promise<number | null> {
  const entries = await loadRunsWithVerdicts(store, { batchId });
  const batch = await store.getBatch(batchId);
  const scope = batch ? changedOnlyOf(batch.spec) : null;
  const arms = armGroups(batch, entries);
  const decisions = arms.length === 2 ? await store.getBatchDecisions(batchId) : [];
  const gate = wantsGate(options)
    ? evaluateBatchGate({
        conditions: options.gate ? parseGate(options.gate) : [],
        entries,
        arms,
        prices,
        ...(options.maxInfraErrors !== undefined ? { maxInfraErrors: options.maxInfraErrors } : {}),
        ...(options.baseline ? { baseline: await selectSide(store, options.baseline) } : {}),
        ...(decisions.length > 0 ? { decided: { batchId, decisions } } : {}),
      })
    : null;
  if (options.junit) {
    const file = resolve(io.cwd, options.junit);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, renderJunit(batchId, entries, scope, { arms: arms.map((a) => a.name), ...(gate ? { gate: gate.checks } : {}) }));
    await rename(tmp, file);
    io.out(`JUnit report: ${options.junit}`);
  }
  if (!gate) return null;
  // Fisher's labels anywhere an until-decided batch's runs are read without its decisions: said, never silent.
  if (batch?.spec.until_decided && decisions.length === 0 && arms.length === 2) {
    gate.notes.push(`batch ${batchId} ran until decided and stored no sequential decisions: regressions against the baseline arm are Fisher's exact test on its runs, whose counts were chosen while looking: read them as approximate`);
  }
  if (options.baseline) {
    const sides = { '--baseline': await resolveSide(store, options.baseline), 'this batch': { label: batchId, filter: { batchId } } };
    gate.notes.push(...(await sequentialSideNotes(store, sides)).map((note) => `against --baseline: ${note}`));
  }
  evaluated?.(gate);
  io.out('');
  // A gate met on a subset must not read as the whole bank's.
  if (scope) io.out(`gate: covers only the cases of ${describeChangedOnly(scope)}; ${scope.skipped.length} skipped`);
  if (arms.length > 0) io.out(`gate: per arm, never pooled: every arm but the baseline arm ${arms[0]!.name} must meet it and not regress against ${arms[0]!.name}`);
  for (const check of gate.checks) {
    const arm = check.arm === null ? '' : `${check.arm}: `;
    if (check.infrastructure) {
      io.out(`gate: FAILED: ${check.detail}`);
      continue;
    }
    if (check.comparison) {
      io.out(`gate: ${arm}against ${check.name.replace(/^no regression against /, '')}:`);
      for (const line of comparisonLines(check.comparison, io.cwd)) io.out(line);
    }
    io.out(`gate: ${arm}${check.met ? 'met' : 'FAILED'}: ${check.name} (${check.detail})`);
  }
  for (const note of gate.notes) io.out(`gate: ${note}`);
  if (gate.outcome === 'met') io.out('gate: met');
  return GATE_EXIT[gate.outcome === 'infrastructure' ? 'infrastructure' : gate.outcome];
}
