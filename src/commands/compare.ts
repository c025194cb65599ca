import type * as z from 'zod';
import { snakeCaseKeys } from '../cli/snakeCaseJson.js';
import { printJson } from '../cli/json/document.js';
import { CompareJson } from '../cli/json/compare.js';
import { loadSettings } from '../config.js';
import { openStore } from '../store/index.js';
// The summaries' own files, not their index: it would load every summary (yaml among them) for one comparison.
import { compareSideStats } from '../summaries/comparison.js';
import { comparisonLines } from '../summaries/renderComparison.js';
import { decisionsForSides, withDecisions } from '../summaries/sequentialComparison.js';
import { loadSideTriggerObservations, triggerQuality, triggerQualityFields, triggerQualityLines } from '../summaries/triggerQuality.js';
import { resolvedSideStats, resolveSide } from '../summaries/selectSide.js';
import type { CommandIo } from '../cli/io.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { noiseFloorJson, noiseFloorLines } from '../cli/output/noiseFloorLines.js';
import { noiseFloor } from '../summaries/noiseFloor.js';
import { sequentialSideNotes } from '../summaries/sequentialSideNotes.js';

export interface CompareOptions {
  a: string;
  b: string;
  batch?: string;
  json?: boolean;
  tolerance?: number;
  config?: string;
}

/** `evalflow compare` exit codes: no regression, a regression beyond the tolerance, nothing comparable. */
export const COMPARE_EXIT = { ok: 0, regression: 1, nothingComparable: 3 } as const;

/**
 * `evalflow compare A B`: per case, A → B with intervals and a label, regressions first.
 * Exit 0 when no case regressed by more than `--tolerance` (a pass-rate drop, default 0),
 * 1 when one did, 3 when nothing could be compared.
 */
export async function run(options: CompareOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    let a, b, decided, observations;
    try {
      const [sideA, sideB] = await firstErrorInOrder([resolveSide(store, options.a, options.batch), resolveSide(store, options.b, options.batch)]);
      // Every side query is sent at once, trigger quality's too: the store answers them one
      // after another while this process parses the rows already back (counted per case in
      // SQL: two 1,000-run sides loaded whole took seconds). A's error comes first; trigger
      // quality's rejection is awaited below, never left unhandled.
      observations = Promise.all([loadSideTriggerObservations(store, sideA.filter), loadSideTriggerObservations(store, sideB.filter)]);
      observations.catch(() => undefined);
      [a, b] = await firstErrorInOrder([resolvedSideStats(store, sideA), resolvedSideStats(store, sideB)]);
      decided = await decisionsForSides(store, options.a, options.b, options.batch);
    } catch (err) {
      io.err(`error: ${(err as Error).message}`);
      return COMPARE_EXIT.nothingComparable;
    }
    // The two arms of a batch run until decided are labelled by the test that stopped it, never by Fisher's on the runs it accumulated;
    // any other comparison of such a batch's runs is Fisher's, and says so.
    const compared = compareSideStats(a.stats, b.stats);
    const notes = decided ? [] : await sequentialSideNotes(store, { A: a, B: b });
    const comparison = decided ? withDecisions(compared, decided) : notes.length > 0 ? { ...compared, methodNotes: notes } : compared;
    const floor = noiseFloor(comparison.cases, new Map([...a.stats.cases].map(([caseId, c]) => [caseId, c.side.hash])), await store.latestCalibrations(comparison.cases.map((c) => c.caseId)));
    const [observedA, observedB] = await observations;
    const triggers = { a: triggerQuality(observedA), b: triggerQuality(observedB) };
    if (options.json) {
      // Trigger quality is keyed by skill refs (data, never renamed) and already snake_case.
      // The schema checks what these loosely typed fields hold when it reads the document.
      const json = { schema_version: 1, method: comparison.sequential ? 'sequential_test' : 'fisher_exact', ...(snakeCaseKeys(comparison) as object), trigger_quality: { a: triggerQualityFields(triggers.a), b: triggerQualityFields(triggers.b) }, noise_floor: noiseFloorJson(floor) };
      printJson(io, CompareJson, json as z.input<typeof CompareJson>);
    }
    else {
      for (const line of comparisonLines(comparison, io.cwd)) io.out(line);
      for (const line of noiseFloorLines(floor)) io.out(line);
      if (Object.keys(triggers.a).length + Object.keys(triggers.b).length > 0) {
        io.out('');
        for (const line of [...triggerQualityLines(a.label, triggers.a), ...triggerQualityLines(b.label, triggers.b)]) io.out(line);
      }
    }
    return compareExitCode(comparison.cases, options.tolerance ?? 0);
  } finally {
    await store.close();
  }
}

/** Every promise's value, or the error of the first (in the given order) that failed. */
async function firstErrorInOrder<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export function compareExitCode(cases: readonly { label: string; difference: number | null }[], tolerance: number): number {
  if (cases.every((c) => c.label === 'not_comparable')) return COMPARE_EXIT.nothingComparable;
  return cases.some((c) => c.label === 'regression' && (c.difference ?? 0) < -tolerance) ? COMPARE_EXIT.regression : COMPARE_EXIT.ok;
}
