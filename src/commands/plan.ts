import type * as z from 'zod';
import { loadSettings } from '../config.js';
import { UsageError } from '../errors.js';
import { openStore } from '../store/index.js';
import { batchArms, loadRunsWithVerdicts } from '../summaries/index.js';
import { planRuns, type CalibratedRate, type RunPlan } from '../summaries/runPlan.js';
import { flipRate } from '../stats/index.js';
import type { Store } from '../store/index.js';
import type { CommandIo } from '../cli/io.js';
import { formatTable } from '../cli/output/table.js';
import { snakeCaseKeys } from '../cli/snakeCaseJson.js';
import { printJson } from '../cli/json/document.js';
import { PlanJson } from '../cli/json/plan.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';

export interface PlanOptions {
  detect: number;
  power?: number;
  alpha?: number;
  batch?: string;
  json?: boolean;
  config?: string;
}

/**
 * `evalflow plan --detect D`: per case of the latest batch (or `--batch`), its measured pass
 * rate, the runs per side a comparison needs to detect a change of D, and what that costs.
 * A batch with arms is measured on its baseline arm (the arm without the workflow when there
 * is one, else the first): the side a change is compared with.
 */
export async function run(options: PlanOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    const batch = options.batch ? await store.getBatch(options.batch) : (await store.listBatches({ limit: 1 }))[0];
    if (!batch) {
      if (options.batch) throw new UsageError(`--batch '${options.batch}': no such batch in the store`);
      io.err('no batches in the store yet: run a batch first, then plan from its pass rates');
      return 0;
    }
    const entries = await loadRunsWithVerdicts(store, { batchId: batch.batch_id });
    const [baseline] = batchArms(batch, entries);
    const measured = baseline ? entries.filter((e) => e.run.arm === baseline.name) : entries;
    const detect = { detect: options.detect, power: options.power ?? 0.8, alpha: options.alpha ?? 0.05 };
    const plan = planRuns(measured, detect, settings.prices, await calibratedRates(store, measured));
    if (options.json) {
      const fields = snakeCaseKeys({ batchId: batch.batch_id, arm: baseline?.name ?? null, ...detect, ...plan }) as Omit<z.input<typeof PlanJson>, 'schema_version'>;
      printJson(io, PlanJson, { schema_version: 1, ...fields });
      return 0;
    }
    io.out(`batch ${batch.batch_id}${baseline ? ` (arm ${baseline.name})` : ''}: runs per side to detect ${points(detect.detect)} at power ${detect.power}, alpha ${detect.alpha}`);
    for (const line of planLines(plan)) io.out(line);
    return 0;
  } finally {
    await store.close();
  }
}

/** The newest calibration of each case's version the batch ran, by case (`evalflow calibrate`). */
async function calibratedRates(store: Store, entries: readonly { run: { case_id: string; case_hash: string } }[]): Promise<Map<string, CalibratedRate>> {
  const ran = new Set(entries.map(({ run }) => `${run.case_id}\0${run.case_hash}`));
  const rows = await store.latestCalibrations([...new Set(entries.map(({ run }) => run.case_id))]);
  const rates = new Map<string, CalibratedRate>();
  for (const row of rows) {
    if (!ran.has(`${row.case_id}\0${row.case_hash}`)) continue;
    rates.set(row.case_id, { caseHash: row.case_hash, runs: row.runs, passes: row.passes, flipRate: flipRate(row.passes, row.runs).rate });
  }
  return rates;
}

function planLines(plan: RunPlan): string[] {
  const rows = plan.cases.map((c) => [
    c.caseId,
    c.passRate === null ? '–' : `${Math.round(c.passRate * 100)}% (${c.passes}/${c.judged})`,
    c.runsPerSide === null ? '–' : String(c.runsPerSide),
    c.costPerRun === null ? '–' : dollars(c.costPerRun),
    c.batchCost === null ? '–' : dollars(c.batchCost),
    [c.source === 'calibration' ? `calibrated (flip rate ${c.flipRate === null ? '–' : `${Math.round(c.flipRate * 100)}%`})` : '', c.note ?? ''].filter(Boolean).join('; '),
  ]);
  const { totals } = plan;
  rows.push([
    'total',
    '',
    String(totals.runsPerSide),
    '',
    totals.cost === null ? '–' : dollars(totals.cost),
    [`${totals.runs} runs both sides`, totals.cost === null && totals.runs > 0 ? 'no prices' : '', totals.unplanned > 0 ? `${totals.unplanned} case${totals.unplanned === 1 ? '' : 's'} not planned` : ''].filter(Boolean).join('; '),
  ]);
  return formatTable(['case', 'pass rate', 'runs per side', 'cost per run', 'cost (A+B)', 'note'], rows);
}

function points(fraction: number): string {
  return `${+(fraction * 100).toFixed(2)} points`;
}

function dollars(value: number): string {
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}
