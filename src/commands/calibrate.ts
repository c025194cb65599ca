import { knownAdapterNames } from '../candidates/index.js';
import { loadSettings, resolveCandidate, type Settings } from '../config.js';
import { refuseLocalStart } from '../cli/checks/localStart.js';
import { checkJudging, judgingOverrides, type JudgingFlags } from '../cli/checks/judging.js';
import { applyChangedOnly, batchSelection } from '../cli/changedOnlyFlag.js';
import { executeBatch } from '../cli/batch/start.js';
import { printBatchReport, sayDetached } from '../cli/batch/follow.js';
import type { InterruptMode } from '../cli/batch/interrupts.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { CalibrateJson } from '../cli/json/calibrate.js';
import { noiseJson, noiseTableLines } from '../cli/output/noiseTable.js';
import { openRuntime } from '../cli/runtime.js';
import { storeOptions } from '../cli/storeOptions.js';
import { UsageError } from '../errors.js';
import type { BatchArm } from '../run/batchInput.js';
import { selectCases, selectionOverrides } from '../run/selection.js';
import { refuseUnusableBank } from '../cli/checks/unusableBank.js';
import type { SelectionFlags } from '../run/selectionFlags.js';
import { openStore, type Store } from '../store/index.js';
import { loadRunsWithVerdicts } from '../summaries/index.js';
import { armGroups } from '../summaries/armGroups.js';
import { calibrationRows, measureNoise } from '../summaries/calibration.js';
import { panelJudgings } from '../summaries/panelJudgings.js';

/** The flags of `evalflow calibrate`: run's selection (one configuration, no arms), its judging, and these. */
export interface CalibrateOptions extends SelectionFlags, JudgingFlags {
  config?: string;
  /** `--batch ID`: measure an A/A batch already run (again, e.g. after `rejudge --repeat`) instead of running one. */
  batch?: string;
  json?: boolean;
  worker?: boolean;
  onInterrupt?: InterruptMode;
}

/** Runs a side per case when --runs-per-case is not given: ten runs of each case in all. */
export const DEFAULT_CALIBRATION_RUNS = 5;

/** The two sides of an A/A batch: the same configuration, alternating per case like any A/B batch's arms. */
const SAME_TWICE: BatchArm[] = [
  { name: 'A1', change: 'base' },
  { name: 'A2', change: 'base' },
];

/**
 * `evalflow calibrate`: runs the selected cases as an A/A batch (one configuration twice,
 * interleaved, k runs a side), then measures each case's flip rate (how often identical inputs
 * get different verdicts), stores it per case version and prints it. With `--batch` it measures
 * an A/A batch already run, counting the judgings `rejudge --repeat` added to split the judge's
 * share from the agent's. Exit 0 when the calibration was stored, 1 when some run did not complete.
 */
export async function run(options: CalibrateOptions, io: CommandIo): Promise<number> {
  refuseArms(options);
  const settings = await loadSettings(io.cwd, io.env, {
    ...(options.config ? { configPath: options.config } : {}),
    ...selectionOverrides(options),
    ...judgingOverrides(options),
  });
  if (options.batch) {
    const store = await openStore(storeOptions(settings));
    try {
      return await measure(store, options.batch, settings, options, io, EXIT.ok);
    } finally {
      await store.close();
    }
  }
  const selected = await selectCases(options, settings.evalSets, io.cwd);
  if (refuseUnusableBank(selected, io)) return 1;
  const { bank } = selected;
  const changed = options.changedOnly ? await applyChangedOnly(options.changedOnly, settings, bank.cases, io) : null;
  if (changed?.cases.length === 0) {
    io.out(`nothing to calibrate: no selected case can be affected by the workflow changes since ${options.changedOnly}`);
    return EXIT.ok;
  }
  const candidate = resolveCandidate(settings, settings.defaultCandidate, knownAdapterNames, io.env);
  checkJudging(settings, candidate, io);
  if (await refuseLocalStart(settings, candidate, [], io, options.worker)) return 1;
  const runtime = await openRuntime(settings, io, { worker: options.worker === false ? false : 'auto' });
  try {
    const execution = await executeBatch(
      settings,
      runtime,
      {
        ...batchSelection(selected, changed),
        candidate,
        runsPerCase: options.runsPerCase ?? DEFAULT_CALIBRATION_RUNS,
        parallelism: options.parallelism ?? settings.parallelism,
        arms: SAME_TWICE,
      },
      io,
      options.onInterrupt ? { onInterrupt: options.onInterrupt } : {},
    );
    if (execution.detached) {
      sayDetached(execution.batchId, runtime.temporal, io);
      io.err(`once it has ended: evalflow calibrate --batch ${execution.batchId}`);
      return EXIT.detached;
    }
    // The runs' table goes to stderr here: stdout is the calibration's (its JSON with --json).
    printBatchReport(execution.report, execution.end, { ...io, out: io.err }, runtime.temporal.uiUrl);
    return await measure(runtime.store, execution.report.batchId, settings, options, io, execution.report.allCompleted ? EXIT.ok : EXIT.notAllCompleted);
  } finally {
    await runtime.close();
  }
}

/** Measures the batch's noise, stores it per case and prints it; `code` is the exit code when that went well. */
async function measure(store: Store, batchId: string, settings: Settings, options: CalibrateOptions, io: CommandIo, code: number): Promise<number> {
  const batch = await store.getBatch(batchId);
  if (!batch) throw new UsageError(`--batch ${batchId}: expected a batch in the store, found none by that id`);
  const entries = await loadRunsWithVerdicts(store, { batchId });
  const differing = armGroups(batch, entries).filter((arm) => arm.change !== 'base');
  if (differing.length > 0) {
    throw new UsageError(`--batch ${batchId}: expected an A/A batch (arms that change nothing, or none), found arm ${differing[0]!.name} (${differing[0]!.change ?? 'unknown change'})`);
  }
  const runIds = entries.map((e) => e.run.run_id);
  // rejudge --repeat's judgings are in the verdict history; run --judges' extra samples only in the judge steps.
  const judgings = [...(await store.getJudgings(runIds)), ...(await panelJudgings(store, runIds))];
  const noise = measureNoise(entries, judgings, settings.prices);
  for (const row of calibrationRows(batchId, noise, entries, new Date().toISOString())) await store.saveCalibration(row);
  if (options.json) printJson(io, CalibrateJson, noiseJson(batchId, noise));
  else {
    io.out(`calibration ${batchId}: the flip rate is the share of pairs of runs on identical inputs whose verdicts disagree (docs/how-many-runs.md)`);
    for (const line of noiseTableLines(noise)) io.out(line);
  }
  return code;
}

/** An A/A batch runs one configuration twice: arms, which change something, have no place here. */
function refuseArms(options: CalibrateOptions): void {
  const arm = options.arm?.[0];
  if (arm !== undefined) {
    throw new UsageError(`--arm ${arm}: expected no --arm (calibrate runs one configuration twice; choose it with --candidate, --candidate-model or --workflow-dir), found one`);
  }
  if (options.batch !== undefined && (options.runsPerCase !== undefined || (options.paths?.length ?? 0) > 0 || options.only !== undefined || options.judges !== undefined)) {
    throw new UsageError(`--batch ${options.batch}: expected alone (it measures a batch already run), found it with cases, --runs-per-case or --judges to run`);
  }
}
