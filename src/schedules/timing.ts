import * as z from 'zod';
import { ConfigError } from '../errors.js';

/** When a schedule fires: a cron expression (UTC) or a fixed interval. */
export const ScheduleTimingSchema = z.union([z.object({ cron: z.string() }), z.object({ every: z.string() })]);
export type ScheduleTiming = z.infer<typeof ScheduleTimingSchema>;

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The shortest interval a schedule may have: a batch takes at least that long to start and plan. */
const MIN_EVERY_MS = 60_000;

/** `--every 24h` → milliseconds; `90m`, `1d`, `1h30m` work, anything else is a ConfigError saying what is expected. */
export function parseEvery(text: string): number {
  const parts = [...text.trim().matchAll(/(\d+)\s*([smhd])/g)];
  const consumed = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || consumed.replace(/\s/g, '') !== text.trim().replace(/\s/g, '')) {
    throw new ConfigError(`--every: expected a duration such as 24h, 90m, 1d or 1h30m, found ${JSON.stringify(text)}`);
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0);
  if (ms < MIN_EVERY_MS) throw new ConfigError(`--every: expected at least 1m, found ${JSON.stringify(text)}`);
  return ms;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: DAYS },
] as const;
const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/**
 * Checks a five-field cron expression (minute hour day-of-month month day-of-week, in UTC; or
 * a macro such as @daily) before anything is created, naming the field that is wrong.
 */
export function checkCron(expression: string): string {
  const text = expression.trim();
  if (MACROS.has(text.toLowerCase())) return text.toLowerCase();
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    throw new ConfigError(`--cron: expected 5 fields (minute hour day-of-month month day-of-week, UTC), e.g. '0 2 * * *' for 02:00 every night; found ${fields.length} in ${JSON.stringify(expression)}`);
  }
  fields.forEach((field, i) => checkField(field, FIELDS[i]!, expression));
  return fields.join(' ');
}

function checkField(field: string, spec: (typeof FIELDS)[number], expression: string): void {
  const bad = (why: string) => new ConfigError(`--cron ${JSON.stringify(expression)}: the ${spec.name} field ${JSON.stringify(field)} ${why}`);
  for (const item of field.split(',')) {
    const [range, step, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '') throw bad('is not a value, range or step (e.g. 5, 1-5, */15, 1,15)');
    if (step !== undefined && !/^\d+$/.test(step)) throw bad(`has step ${JSON.stringify(step)}; expected a whole number`);
    if (range === '*') continue;
    const ends = range.split('-');
    if (ends.length > 2) throw bad('has a range with more than two ends');
    const values = ends.map((end) => valueOf(end, spec));
    for (const [j, value] of values.entries()) {
      if (value === null) throw bad(`has ${JSON.stringify(ends[j])}; expected ${spec.min}-${spec.max}${'names' in spec ? ` or a name (${spec.names.slice(0, 3).join(', ')}, …)` : ''}`);
    }
    if (values.length === 2 && values[0]! > values[1]!) throw bad('has a range that runs backwards');
  }
}

function valueOf(text: string, spec: (typeof FIELDS)[number]): number | null {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= spec.min && n <= spec.max ? n : null;
  }
  if ('names' in spec) {
    const index = (spec.names as readonly string[]).indexOf(text.toLowerCase());
    if (index >= 0) return spec.name === 'month' ? index + 1 : index;
  }
  return null;
}

/** `--cron` or `--every`, exactly one of them, checked. */
export function timingOf(options: { cron?: string; every?: string }): ScheduleTiming {
  if (options.cron !== undefined && options.every !== undefined) throw new ConfigError('schedule create: give --cron or --every, not both');
  if (options.cron !== undefined) return { cron: checkCron(options.cron) };
  if (options.every !== undefined) {
    parseEvery(options.every);
    return { every: options.every.trim() };
  }
  throw new ConfigError("schedule create: say when it runs: --cron '0 2 * * *' (02:00 UTC every night) or --every 24h");
}

/** How the timing reads in listings. */
export function describeTiming(timing: ScheduleTiming): string {
  return 'cron' in timing ? `cron '${timing.cron}' (UTC)` : `every ${timing.every}`;
}
