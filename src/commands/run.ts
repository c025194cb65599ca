import { relative } from 'node:path';
import { knownAdapterNames } from '../candidates/index.js';
import { loadSettings, resolveCandidate } from '../config.js';
import { refuseLocalStart } from '../cli/checks/localStart.js';
import { uncommittedChanges } from '../sandbox/projectRepo.js';
import { reportArms } from '../cli/output/armsReport.js';
import { reportGate } from '../cli/output/gateReport.js';
import { checkBaselineFlag } from '../cli/baselineFlag.js';
import { parseGate } from '../summaries/index.js';
import { executeBatch } from '../cli/batch/start.js';
import { EXIT } from '../cli/exitCodes.js';
import { printBatchReport, sayDetached } from '../cli/batch/follow.js';
import type { InterruptMode } from '../cli/batch/interrupts.js';
import { linesToStderr, type CommandIo } from '../cli/io.js';
import { printJson } from '../cli/json/document.js';
import { BatchResultJson, batchResultJson, nothingRanJson } from '../cli/json/batchResult.js';
import type { BatchGate } from '../summaries/batchGate.js';
import { checkJudging, judgingOverrides, type JudgingFlags } from '../cli/checks/judging.js';
import { openRuntime } from '../cli/runtime.js';
import { applyChangedOnly, batchSelection } from '../cli/changedOnlyFlag.js';
import { storeOptions } from '../cli/storeOptions.js';
import { resolveArmFlags } from '../cli/armFlags.js';
import { selectCases, selectionOverrides } from '../run/selection.js';
import { refuseUnusableBank } from '../cli/checks/unusableBank.js';
import type { SelectionFlags } from '../run/selectionFlags.js';
import { untilDecidedLimits, type UntilDecidedFlags } from '../cli/untilDecidedFlags.js';
import { reportStoredDecisions } from '../cli/output/decisionsReport.js';
import { untilDecidedDesign } from '../run/untilDecided.js';
import { noiseForecast } from '../run/noiseForecast.js';

/** The flags of `evalflow run`: what it runs (`SelectionFlags`, shared with schedules), how it is judged (`JudgingFlags`), and these. */
export interface RunOptions extends SelectionFlags, JudgingFlags, UntilDecidedFlags {
  config?: string;
  /** commander's --no-worker gives `worker: false`. */
  worker?: boolean;
  /** What the first Ctrl-C does: ask on a terminal (else detach), detach, or cancel. */
  onInterrupt?: InterruptMode;
  /** `--gate 'pass_rate>=0.8'`, `--baseline`, `--junit`, `--max-infra-errors`: a CI gate. */
  gate?: string;
  baseline?: string;
  junit?: string;
  maxInfraErrors?: number;
  /** Print the result as one JSON document on stdout (docs/json.md); every other line goes to stderr. */
  json?: boolean;
}

/**
 * `evalflow run`: validates the selected cases, then runs each (k times) as a durable
 * workflow and prints one table row per run. Exit 0 when every run completed (pass or fail),
 * 1 otherwise, 130 when Ctrl-C detached (the batch goes on; `evalflow attach` follows it).
 */
export async function run(options: RunOptions, given: CommandIo): Promise<number> {
  const io = options.json ? linesToStderr(given) : given;
  // A gate that cannot be read is refused before anything else is read or started.
  if (options.gate) parseGate(options.gate);
  const settings = await loadSettings(io.cwd, io.env, {
    ...(options.config ? { configPath: options.config } : {}),
    ...selectionOverrides(options),
    ...judgingOverrides(options),
  });
  // Adaptive limits that cannot work are refused before the bank is read or anything starts.
  const untilDecided = untilDecidedLimits(options, options.arm?.length ?? 0, settings.prices);
  if (options.baseline) await checkBaselineFlag(storeOptions(settings), options.baseline);
  const selected = await selectCases(options, settings.evalSets, io.cwd);
  if (refuseUnusableBank(selected, io)) return 1;
  const { bank } = selected;
  const changed = options.changedOnly ? await applyChangedOnly(options.changedOnly, settings, bank.cases, io) : null;
  if (changed?.cases.length === 0) {
    io.out(`nothing to run: no selected case can be affected by the workflow changes since ${options.changedOnly}`);
    if (options.json) printJson(given, BatchResultJson, nothingRanJson());
    return EXIT.ok;
  }
  const candidate = resolveCandidate(settings, settings.defaultCandidate, knownAdapterNames, io.env);
  const arms = await resolveArmFlags(options.arm ?? [], settings, candidate, io);
  checkJudging(settings, candidate, io);
  if (await refuseLocalStart(settings, candidate, arms.flatMap((arm) => (arm.candidate ? [arm.candidate] : [])), io, options.worker)) return 1;
  await warnAboutUncommittedChanges(settings.project, io);
  const runtime = await openRuntime(settings, io, { worker: options.worker === false ? false : 'auto' });
  try {
    if (untilDecided) {
      const picked = changed?.cases ?? bank.cases;
      const calibrations = await runtime.store.latestCalibrations(picked.map((c) => c.id));
      for (const line of noiseForecast(untilDecidedDesign(untilDecided), untilDecided, picked, calibrations)) io.err(line);
    }
    const execution = await executeBatch(
      settings,
      runtime,
      {
        ...batchSelection(selected, changed),
        candidate,
        runsPerCase: options.runsPerCase ?? settings.runsPerCase,
        parallelism: options.parallelism ?? settings.parallelism,
        ...(arms.length > 0 ? { arms } : {}),
        ...(untilDecided ? { untilDecided } : {}),
      },
      io,
      options.onInterrupt ? { onInterrupt: options.onInterrupt } : {},
    );
    if (execution.detached) {
      sayDetached(execution.batchId, runtime.temporal, io);
      return EXIT.detached;
    }
    printBatchReport(execution.report, execution.end, io, runtime.temporal.uiUrl);
    // An until-decided batch stored its decisions as it closed (cancelled too): those are its labels.
    const { batchId, rounds, runs } = execution.report;
    if (untilDecided) await reportStoredDecisions(runtime.store, batchId, rounds ?? null, runs.length, settings.summariesDir, io);
    else if (arms.length > 1) await reportArms(runtime.store, execution.report.batchId, arms, settings.summariesDir, io);
    let gate: BatchGate | null = null;
    const gated = await reportGate(runtime.store, execution.report.batchId, options, settings.prices, io, (evaluated) => (gate = evaluated));
    if (options.json) {
      const hosts = await runtime.store.getRunHosts(execution.report.runs.map((r) => r.run_id));
      printJson(given, BatchResultJson, batchResultJson(execution.report, execution.end, hosts, gate, runtime.temporal.uiUrl));
    }
    if (gated !== null) return gated;
    return execution.report.allCompleted ? EXIT.ok : EXIT.notAllCompleted;
  } finally {
    await runtime.close();
  }
}

/** Sandboxes start from the project's last commit: work not yet committed is silently absent. */
async function warnAboutUncommittedChanges(project: string, io: CommandIo): Promise<void> {
  const changed = await uncommittedChanges(project);
  if (!changed?.length) return;
  const shown = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ', …' : '');
  io.err(
    `warning: project ${relative(io.cwd, project) || '.'} has ${changed.length} uncommitted change${changed.length === 1 ? '' : 's'} (${shown}); ` +
      'sandboxes start from its last commit without them: commit them to evaluate them',
  );
}
