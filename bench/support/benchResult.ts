import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import * as z from 'zod';

/** One measured figure: a ratio against a baseline of the same run, or a plain figure to report. */
export const BenchRowSchema = z.object({
  metric: z.string(),
  value: z.number().nullable(),
  unit: z.string(),
  /** What the value is measured against, in the same run (for ratios). */
  against: z.string().optional(),
  /** The goal, written as `<= 1.10` or `>= 0.95`; absent for figures that are only reported. */
  goal: z.string().optional(),
  met: z.boolean().nullable().optional(),
  detail: z.string().optional(),
});
export type BenchRow = z.infer<typeof BenchRowSchema>;

/** What `bench/results/<name>.json` holds: one benchmark's figures and the machine they came from. */
export const BenchResultSchema = z.object({
  name: z.string(),
  title: z.string(),
  measuredAt: z.string(),
  seconds: z.number(),
  machine: z.object({ cpus: z.number(), cpuModel: z.string(), memoryGiB: z.number(), node: z.string() }),
  rows: z.array(BenchRowSchema),
  notes: z.array(z.string()),
});
export type BenchResult = z.infer<typeof BenchResultSchema>;

export const RESULTS_DIR = resolve(import.meta.dirname, '..', 'results');

export function machine(): BenchResult['machine'] {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
}

/** A row whose `met` follows from its goal. */
export function row(metric: string, value: number | null, unit: string, extra: Omit<BenchRow, 'metric' | 'value' | 'unit' | 'met'> = {}): BenchRow {
  return { metric, value, unit, ...extra, met: extra.goal === undefined ? undefined : meets(value, extra.goal) };
}

function meets(value: number | null, goal: string): boolean | null {
  if (value === null) return null;
  const match = /^(<=|>=)\s*(-?[\d.]+)$/.exec(goal.trim());
  if (!match) throw new Error(`bench goal "${goal}": expected "<= N" or ">= N"`);
  const limit = Number(match[2]);
  return match[1] === '<=' ? value <= limit : value >= limit;
}

/** Writes the result beside the others and prints its rows; the benchmark's last step. */
export function writeResult(result: Omit<BenchResult, 'measuredAt' | 'machine' | 'seconds'>, startedAt: number): BenchResult {
  const full = BenchResultSchema.parse({ ...result, measuredAt: new Date().toISOString(), seconds: Math.round((Date.now() - startedAt) / 100) / 10, machine: machine() });
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${result.name}.json`), `${JSON.stringify(full, null, 2)}\n`);
  for (const r of full.rows) console.log(`  ${r.metric}: ${formatValue(r)}${r.goal ? ` (goal ${r.goal}: ${r.met === null ? 'not measured' : r.met ? 'met' : 'MISSED'})` : ''}`);
  for (const note of full.notes) console.log(`  note: ${note}`);
  return full;
}

export function formatValue(r: BenchRow): string {
  if (r.value === null) return 'n/a';
  const digits = r.unit === '×' ? 2 : Math.abs(r.value) >= 100 ? 0 : Math.abs(r.value) >= 10 ? 1 : 2;
  return `${r.value.toFixed(digits)}${r.unit === '×' ? '×' : ` ${r.unit}`}${r.against ? ` vs ${r.against}` : ''}`;
}
